package dev.switchboard.inserver;

import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;

import java.io.File;

/**
 * What the in-server tests deploy: the WAR the build just packaged, as it is, plus the test classes and Fault
 * Tolerance settings short enough to watch policies act within seconds (the annotations' own defaults are the
 * production values). A name of its own, so it never clashes with the {@code switchboard.war} the production
 * server.xml names.
 */
public final class InServerDeployment {

    /** Each key overrides one annotation attribute on one method (MicroProfile Fault Tolerance's own config keys). */
    static final String FAULT_TOLERANCE_SETTINGS = String.join("\n",
            "dev.switchboard.llm.ProviderCalls/call/CircuitBreaker/delay=2",
            "dev.switchboard.security.JwksFetch/fetch/Timeout/value=1",
            "dev.switchboard.security.JwksFetch/fetch/Retry/delay=100",
            "dev.switchboard.security.JwksFetch/fetch/Retry/jitter=0",
            "dev.switchboard.sql.catalog.CatalogReads/read/Timeout/value=1",
            "dev.switchboard.sql.catalog.CatalogReads/read/Retry/delay=0",
            "dev.switchboard.sql.catalog.CatalogReads/read/Retry/jitter=0",
            "dev.switchboard.platform.DatabaseReadinessCheck/call/Timeout/value=1",
            "");

    private InServerDeployment() {
    }

    public static WebArchive of(Class<?>... testClasses) {
        File war = new File(System.getProperty("it.inserver.war", "target/switchboard.war"));
        return ShrinkWrap.create(WebArchive.class, "switchboard-inserver.war")
                .merge(ShrinkWrap.createFromZipFile(WebArchive.class, war))
                .addClasses(testClasses)
                .addClass(InServerDeployment.class)
                .addAsResource(new StringAsset(FAULT_TOLERANCE_SETTINGS), "META-INF/microprofile-config.properties");
    }
}
