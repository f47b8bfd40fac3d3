package dev.switchboard.platform.json;

import jakarta.json.spi.JsonProvider;

/** The process's one JSON-P provider, shared by every room that builds or reads JSON. */
public final class JsonProviders {

    /** One provider for the whole process: looking it up per message is expensive. */
    public static final JsonProvider JSON = JsonProvider.provider();

    private JsonProviders() {
    }
}
