package dev.switchboard.platform.drain;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The filter's ticket for a call answered asynchronously, as a servlet container drives it (here by hand). */
class DrainFilterTest {

    @Test
    void anAsynchronousCallHoldsOneTicketUntilItsResponseIsCompleteThoughTwoMappingsOfTheFilterRun() throws Exception {
        Drain drain = DrainTest.drain(Duration.ofSeconds(1), new ArrayList<>());
        List<AsyncListener> listeners = new ArrayList<>();
        AsyncContext async = (AsyncContext) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{AsyncContext.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("addListener")) {
                        listeners.add((AsyncListener) args[0]);
                    }
                    return null;
                });
        boolean[] started = {false};
        Map<String, Object> attributes = new HashMap<>();
        HttpServletRequest original = (HttpServletRequest) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[]{HttpServletRequest.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getMethod" -> "POST";
                    case "startAsync" -> {
                        started[0] = true;
                        yield async;
                    }
                    case "isAsyncStarted" -> started[0];
                    case "getAsyncContext" -> async;
                    case "getAttribute" -> attributes.get((String) args[0]);
                    case "setAttribute" -> attributes.put((String) args[0], args[1]);
                    default -> null;
                });
        HttpServletResponse response = (HttpServletResponse) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[]{HttpServletResponse.class}, (proxy, method, args) -> null);
        DrainFilter outer = new DrainFilter();
        outer.drain = drain;
        DrainFilter inner = new DrainFilter();
        inner.drain = drain;
        FilterChain servlet = (request, reply) -> ((ServletRequest) request).startAsync();
        outer.doFilter(original, response, (request, reply) -> inner.doFilter(request, reply, servlet));

        assertEquals(1, drain.running(), "one ticket, though both mappings of the filter ran, held while the call runs");
        assertEquals(1, drain.admitted());
        for (AsyncListener listener : List.copyOf(listeners)) {
            listener.onComplete(new AsyncEvent(async));
        }
        assertEquals(0, drain.running(), "and freed once its response is complete");
    }
}
