package dev.switchboard.sql.catalog;

import dev.switchboard.sql.QueryErrorCode;
import dev.switchboard.sql.QueryException;
import dev.switchboard.sql.execute.QueryConnectionSource;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.faulttolerance.Fallback;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;

import java.time.temporal.ChronoUnit;
import java.util.Map;

/**
 * Reading the query database's schema (at first use and whenever the cached catalog is refreshed or expires) under
 * MicroProfile Fault Tolerance: an attempt that fails with a database error is tried again twice, 1 s apart (a
 * failover, a connection dropped by the pool), and each attempt may take at most 30 s. A read that timed out in every
 * attempt becomes the query service's database error rather than Fault Tolerance's own exception. Settings:
 * {@code dev.switchboard.sql.catalog.CatalogReads/read/Timeout/value}, {@code .../Retry/maxRetries},
 * {@code .../Retry/delay}.
 */
@ApplicationScoped
public class CatalogReads {

    @Timeout(value = 30, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 1, delayUnit = ChronoUnit.SECONDS, retryOn = {QueryException.class, TimeoutException.class})
    @Fallback(fallbackMethod = "timedOut", applyOn = TimeoutException.class)
    public Map<String, TableInfo> read(QueryConnectionSource connections) {
        return SchemaCatalog.read(connections);
    }

    Map<String, TableInfo> timedOut(QueryConnectionSource connections) {
        throw new QueryException(QueryErrorCode.DATABASE, "读取数据库结构超时", Map.of(), null);
    }
}
