package dev.switchboard.gateway.modern;

import dev.switchboard.audit.CanonicalJson;
import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.security.SecretCipher;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * The {@code requestState} the gateway hands a 2026-07-28 client with {@code input_required}: which paused call and
 * round it resumes, bound to the caller (tenant and subject) and to the request (method, name or URI, a digest of
 * its arguments), until when. It is sealed with the secret key ({@link SecretCipher}, AES-256-GCM, bound to its own
 * place), so a client can neither read it nor change it, and it holds no secret and nothing of another tenant: a
 * tampered state, another caller's, or one of another request is refused before anything is resumed. Every member of
 * a cluster has the same key, so any member can open it.
 *
 * @param call    the paused call's id
 * @param round   the round this state answers ({@link PausedCall#takeRound})
 * @param expires when the paused call gives up waiting
 */
record RequestState(String call, int round, Binding binding, Instant expires) {

    /** Where the state is "stored", for the cipher's associated data: a state cannot pass for a stored secret. */
    static final String PLACE = "mcp/request-state";

    /** What a retry must match: the same caller asking the same thing. */
    record Binding(String tenant, String subject, String method, String target, String argumentsDigest) {

        /** The binding of a request: {@code params} without {@code _meta}, {@code inputResponses} and {@code requestState}. */
        static Binding of(String tenant, String subject, JsonRpcMessage request) {
            JsonObject params = request.params();
            JsonObjectBuilder arguments = JSON.createObjectBuilder(params);
            arguments.remove("_meta");
            arguments.remove("inputResponses");
            arguments.remove("requestState");
            String target = params.get("name") instanceof JsonString n ? n.getString()
                    : params.get("uri") instanceof JsonString u ? u.getString() : "";
            return new Binding(tenant, subject, request.method(), target, digest(CanonicalJson.of(arguments.build())));
        }

        private static String digest(String text) {
            try {
                return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    String seal(SecretCipher cipher) {
        JsonObject plain = JSON.createObjectBuilder().add("c", call).add("r", round).add("t", binding.tenant())
                .add("s", binding.subject()).add("m", binding.method()).add("n", binding.target())
                .add("a", binding.argumentsDigest()).add("e", expires.toEpochMilli()).build();
        return cipher.encrypt(plain.toString(), PLACE);
    }

    /** The state a client brought back; empty when it was not sealed by this gateway's key or was changed. */
    static Optional<RequestState> open(SecretCipher cipher, String sealed) {
        if (!SecretCipher.isEncrypted(sealed)) {
            return Optional.empty();
        }
        try (var reader = JSON.createReader(new StringReader(cipher.decrypt(sealed, PLACE)))) {
            JsonObject o = reader.readObject();
            return Optional.of(new RequestState(o.getString("c"), o.getInt("r"), new Binding(o.getString("t"), o.getString("s"),
                    o.getString("m"), o.getString("n"), o.getString("a")), Instant.ofEpochMilli(o.getJsonNumber("e").longValue())));
        } catch (IllegalStateException | jakarta.json.JsonException | ClassCastException | NullPointerException e) {
            return Optional.empty();
        }
    }
}
