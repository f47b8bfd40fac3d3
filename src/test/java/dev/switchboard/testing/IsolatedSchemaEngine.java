package dev.switchboard.testing;

import java.io.File;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs com.networknt json-schema-validator in its own class loader.
 *
 * <p>Why: Flyway (main scope) pulls jackson-core 2.15.2, which Maven's nearest-wins puts on the test classpath,
 * while the validator's jackson-databind 2.18.3 needs jackson-core 2.18 (it fails with NoSuchMethodError on
 * {@code BufferRecycler.releaseToPool}). pom.xml is not ours to change, so the validator gets the test classpath
 * with jackson-core swapped for the version matching jackson-databind from the local Maven repository. Once the
 * pom pins jackson-core to the databind version for tests, the swap is a no-op.
 */
final class IsolatedSchemaEngine {

    private static final Pattern JACKSON_JAR = Pattern.compile("jackson-(core|databind)-(\\d+\\.\\d+\\.\\d+)\\.jar$");

    private final Method getInstance;
    private final Method getSchema;
    private final Method locationOf;
    private final Method validate;
    private final Method message;
    private final Object v7;
    private final Object v202012;
    private final Object jsonFormat;

    IsolatedSchemaEngine() {
        try {
            ClassLoader loader = new URLClassLoader(classpathWithMatchingJacksonCore(), ClassLoader.getPlatformClassLoader());
            Class<?> factory = loader.loadClass("com.networknt.schema.JsonSchemaFactory");
            Class<?> versionFlag = loader.loadClass("com.networknt.schema.SpecVersion$VersionFlag");
            Class<?> location = loader.loadClass("com.networknt.schema.SchemaLocation");
            Class<?> schema = loader.loadClass("com.networknt.schema.JsonSchema");
            Class<?> inputFormat = loader.loadClass("com.networknt.schema.InputFormat");
            getInstance = factory.getMethod("getInstance", versionFlag);
            getSchema = factory.getMethod("getSchema", location);
            locationOf = location.getMethod("of", String.class);
            validate = schema.getMethod("validate", String.class, inputFormat);
            message = loader.loadClass("com.networknt.schema.ValidationMessage").getMethod("getMessage");
            v7 = versionFlag.getField("V7").get(null);
            v202012 = versionFlag.getField("V202012").get(null);
            jsonFormat = inputFormat.getField("JSON").get(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("json-schema-validator API not as expected", e);
        }
    }

    /** Compiles the schema at {@code uri} (with fragment) for the given draft. */
    Object compile(String uri, boolean draft2020) {
        try {
            Object factory = getInstance.invoke(null, draft2020 ? v202012 : v7);
            return getSchema.invoke(factory, locationOf.invoke(null, uri));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot compile schema " + uri, e);
        }
    }

    /** The validation messages for a JSON text; empty when valid. */
    List<String> validate(Object compiledSchema, String json) {
        try {
            List<String> problems = new ArrayList<>();
            for (Object m : (Set<?>) validate.invoke(compiledSchema, json, jsonFormat)) {
                problems.add((String) message.invoke(m));
            }
            return problems;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("schema validation failed to run", e);
        }
    }

    private static URL[] classpathWithMatchingJacksonCore() {
        String[] entries = System.getProperty("java.class.path").split(File.pathSeparator);
        String databindVersion = null;
        for (String entry : entries) {
            Matcher m = JACKSON_JAR.matcher(entry);
            if (m.find() && m.group(1).equals("databind")) {
                databindVersion = m.group(2);
            }
        }
        List<URL> urls = new ArrayList<>();
        for (String entry : entries) {
            Matcher m = JACKSON_JAR.matcher(entry);
            Path path = Paths.get(entry);
            if (m.find() && m.group(1).equals("core") && databindVersion != null && !m.group(2).equals(databindVersion)) {
                // .../jackson-core/2.15.2/jackson-core-2.15.2.jar -> .../jackson-core/<databind>/jackson-core-<databind>.jar
                path = path.getParent().getParent().resolve(databindVersion).resolve("jackson-core-" + databindVersion + ".jar");
                if (!Files.isRegularFile(path)) {
                    throw new IllegalStateException("jackson-core " + databindVersion + " (needed by json-schema-validator) is not in the"
                            + " local Maven repository; add com.fasterxml.jackson.core:jackson-core:" + databindVersion
                            + " with test scope to pom.xml");
                }
            }
            urls.add(toUrl(path));
        }
        return urls.toArray(URL[]::new);
    }

    private static URL toUrl(Path path) {
        try {
            return path.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        }
    }
}
