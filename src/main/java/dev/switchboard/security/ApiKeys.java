package dev.switchboard.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/** Issues, lists, revokes and checks API keys; the api_key table holds only their hashes. */
@ApplicationScoped
@Transactional
public class ApiKeys {

    /** lastUsedAt is a hint for the owner, not an audit trail: write it at most once a minute per key. */
    private static final long LAST_USED_GRANULARITY_MILLIS = 60_000;

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    JwtIssuer issuer;

    @Inject
    VerifiedApiKeys verifiedKeys;

    /** A new key and its row; {@code key} exists only in this object and in the response that shows it. */
    public record Created(ApiKey row, String key) {
    }

    public Created create(TokenSubject owner, String name) {
        IssuedToken token = issuer.apiKey(owner);
        ApiKey row = new ApiKey(name, displayPrefix(token.token()), sha256Hex(token.token()), token.jti(),
                owner.subject(), owner.tenant(), token.issuedAt().toEpochMilli(), token.expiresAt().toEpochMilli());
        em.persist(row);
        em.flush();
        return new Created(row, token.token());
    }

    public List<ApiKey> ownedBy(String subject, String tenant) {
        return em.createNamedQuery(ApiKey.BY_OWNER, ApiKey.class)
                .setParameter("owner", subject).setParameter("tenant", tenant)
                .getResultList();
    }

    /** @return false when there is no such key or it belongs to someone else */
    public boolean revoke(long id, String subject, String tenant) {
        ApiKey key = em.find(ApiKey.class, id);
        if (key == null || !key.ownerSubject().equals(subject) || !key.tenantId().equals(tenant)) {
            return false;
        }
        if (!key.isRevoked()) {
            verifiedKeys.revoking();
            key.revoke(System.currentTimeMillis());
        }
        return true;
    }

    void revokeAllOf(String subject) {
        verifiedKeys.revoking();
        em.createNamedQuery(ApiKey.REVOKE_ALL_OF)
                .setParameter("now", System.currentTimeMillis()).setParameter("owner", subject)
                .executeUpdate();
    }

    /** True when the key with this hash was issued here and is not revoked; records its use. See {@link ApiKeyCheck}. */
    boolean isActive(String keyHash) {
        Optional<ApiKey> row = em.createNamedQuery(ApiKey.BY_HASH, ApiKey.class)
                .setParameter("hash", keyHash).getResultStream().findFirst();
        if (row.isEmpty() || row.get().isRevoked()) {
            return false;
        }
        long now = System.currentTimeMillis();
        Long lastUsed = row.get().lastUsedAt();
        if (lastUsed == null || now - lastUsed >= LAST_USED_GRANULARITY_MILLIS) {
            row.get().markUsed(now);
        }
        return true;
    }

    static String sha256Hex(String key) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * What the owner sees to recognise a key. Every key starts with the same JWT header, so the
     * distinguishing part is its end (the signature).
     */
    static String displayPrefix(String key) {
        return "…" + key.substring(key.length() - 8);
    }
}
