package dev.switchboard.it.support;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A local user of their own (role {@code user}) for the tests of a class, made before them. Use with
 * {@code @RegisterExtension static final NewUser alice = new NewUser()} and {@code alice.token()}.
 */
public final class NewUser implements BeforeAllCallback {

    private final String tenant;
    private String token;

    /** A user of the default tenant. */
    public NewUser() {
        this("default");
    }

    public NewUser(String tenant) {
        this.tenant = tenant;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        token = Api.newUser(tenant);
    }

    /** Their bearer token. */
    public String token() {
        return token;
    }
}
