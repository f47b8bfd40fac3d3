package dev.switchboard.platform.json;

import jakarta.json.spi.JsonProvider;

/** The process's one JSON-P provider, shared by every room that builds or reads JSON. */
public final class JsonProviders {

    /**
     * One provider for the whole process (looking it up per message is expensive), and the one bounded path by which
     * JSON from outside is read: its readers and parsers work under {@link JsonLimits}.
     */
    public static final JsonProvider JSON = new BoundedJsonProvider(JsonProvider.provider(), JsonLimits.configured());

    private JsonProviders() {
    }
}
