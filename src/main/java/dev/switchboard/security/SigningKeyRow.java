package dev.switchboard.security;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * The built-in issuer's signing key as every instance on the database reads it: its PKCS#8 PEM encrypted with the
 * secret key (bound to {@link #PLACE}), one row.
 */
@Entity
@Table(name = "signing_key")
public class SigningKeyRow {

    /** The one row's id. */
    static final int CURRENT = 1;
    /** Where the encrypted key is bound to, as {@link SecretCipher} binds a value to its place. */
    static final String PLACE = "signing_key/1/private_key";

    @Id
    private int id;

    @Column(name = "key_id", nullable = false)
    private String keyId;

    @Column(name = "private_key", nullable = false)
    private String privateKey;

    @Column(name = "created_at", nullable = false)
    private long createdAt;

    protected SigningKeyRow() {
    }

    SigningKeyRow(String keyId, String privateKey, long createdAt) {
        this.id = CURRENT;
        this.keyId = keyId;
        this.privateKey = privateKey;
        this.createdAt = createdAt;
    }

    String privateKey() {
        return privateKey;
    }

}
