package dev.switchboard.observability;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Named fields on the log records of the current thread, through Liberty's {@code LogRecordContext}: in JSON logs
 * each appears as {@code ext_<name>}. That API ships in the Liberty runtime only (no Maven artifact), so it is
 * reached by reflection once; elsewhere (unit tests) the fields are dropped.
 */
final class LogFields {

    private static final Logger LOG = Logger.getLogger(LogFields.class.getName());
    private static final Method ADD;
    private static final Method REMOVE;

    static {
        Method add = null;
        Method remove = null;
        try {
            Class<?> context = Class.forName("com.ibm.websphere.logging.hpel.LogRecordContext");
            add = context.getMethod("addExtension", String.class, String.class);
            remove = context.getMethod("removeExtension", String.class);
        } catch (ReflectiveOperationException | LinkageError e) {
            LOG.log(Level.FINE, "no LogRecordContext: log records get no trace fields", e);
        }
        ADD = add;
        REMOVE = remove;
    }

    private LogFields() {
    }

    static void put(Map<String, String> fields) {
        if (ADD == null) {
            return;
        }
        fields.forEach((name, value) -> {
            if (value != null) {
                invoke(ADD, name, value);
            }
        });
    }

    static void remove(Iterable<String> names) {
        if (REMOVE == null) {
            return;
        }
        names.forEach(name -> invoke(REMOVE, name));
    }

    private static void invoke(Method method, Object... args) {
        try {
            method.invoke(null, args);
        } catch (ReflectiveOperationException e) {
            LOG.log(Level.FINE, "LogRecordContext refused a field", e);
        }
    }
}
