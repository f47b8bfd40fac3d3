package dev.switchboard.backend.registry;

import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.NotificationOptions;
import jakarta.enterprise.util.TypeLiteral;

import java.lang.annotation.Annotation;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

/** The registry-change events a bean fired, for tests that build the bean without a CDI container. */
public final class RecordedChanges implements Event<McpServerChanged> {

    public final List<McpServerChanged> fired = new CopyOnWriteArrayList<>();

    @Override
    public void fire(McpServerChanged event) {
        fired.add(event);
    }

    @Override
    public <U extends McpServerChanged> CompletionStage<U> fireAsync(U event) {
        fired.add(event);
        return CompletableFuture.completedFuture(event);
    }

    @Override
    public <U extends McpServerChanged> CompletionStage<U> fireAsync(U event, NotificationOptions options) {
        return fireAsync(event);
    }

    @Override
    public Event<McpServerChanged> select(Annotation... qualifiers) {
        throw new UnsupportedOperationException("qualified events are not used");
    }

    @Override
    public <U extends McpServerChanged> Event<U> select(Class<U> subtype, Annotation... qualifiers) {
        throw new UnsupportedOperationException("qualified events are not used");
    }

    @Override
    public <U extends McpServerChanged> Event<U> select(TypeLiteral<U> subtype, Annotation... qualifiers) {
        throw new UnsupportedOperationException("qualified events are not used");
    }
}
