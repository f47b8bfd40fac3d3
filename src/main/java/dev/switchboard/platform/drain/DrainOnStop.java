package dev.switchboard.platform.drain;

import jakarta.inject.Inject;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.annotation.WebListener;

/**
 * The web module stops: drain now if no {@code preStop} did. Liberty calls this before the CDI contexts are destroyed
 * (where {@link Drain} also listens), but only after its quiesce: it stops listening on the HTTP port first and lets
 * the requests in progress run for up to 30 s, so on a plain {@code server stop} this ends streams and waits for what
 * is still running; the readiness DOWN and the 503s happen only when the drain starts before ({@code POST /api/drain}).
 */
@WebListener
public class DrainOnStop implements ServletContextListener {

    @Inject
    Drain drain;

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        drain.finish("the application is stopping");
    }
}
