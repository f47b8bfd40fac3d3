package dev.switchboard.platform.egress;

import java.io.IOException;

/**
 * A connection refused before it was opened: the destination is internal and not on the allowlist. An
 * {@link IOException} so it leaves the HTTP client the way a refused connection does; its message is written for
 * the user who registered the server and never holds anything the destination said (nothing was sent to it).
 */
public class AddressNotAllowedException extends IOException {

    public AddressNotAllowedException(String message) {
        super(message);
    }
}
