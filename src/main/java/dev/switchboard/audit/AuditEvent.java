package dev.switchboard.audit;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * One audit row (the governance audit fields plus outcome and duration), linked into its tenant's hash chain:
 * {@code rowHash = SHA-256(canonical JSON of every field but id and rowHash)}, and {@code prevHash} is the row
 * hash of the tenant's previous event, so editing or deleting a row breaks the chain.
 */
@Entity
@Table(name = "audit_event")
public class AuditEvent {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(nullable = false)
    private long ts;
    @Column(name = "tenant_id", nullable = false)
    private String tenantId;
    @Column(name = "client_id")
    private String clientId;
    private String subject;
    @Column(nullable = false)
    private String action;
    private String tool;
    @Column(name = "backend_id")
    private String backendId;
    @Column(nullable = false)
    private String decision;
    @Column(name = "trace_id")
    private String traceId;
    @Column(name = "input_hash")
    private String inputHash;
    @Column(name = "key_version")
    private Integer keyVersion;
    private String outcome;
    @Column(name = "duration_ms")
    private Long durationMs;
    @Column(name = "chain_seq", nullable = false)
    private long chainSeq;
    @Column(name = "prev_hash", nullable = false)
    private String prevHash;
    @Column(name = "row_hash", nullable = false)
    private String rowHash;

    protected AuditEvent() {
    }

    AuditEvent(AuditRecord record, AuditSecrets.InputHash input, long chainSeq, String prevHash) {
        this.ts = record.ts();
        this.tenantId = clamp(record.tenantId(), 64);
        this.clientId = clamp(record.clientId(), 255);
        this.subject = clamp(record.subject(), 255);
        this.action = clamp(record.action(), 64);
        this.tool = clamp(record.tool(), 512);
        this.backendId = clamp(record.backendId(), 255);
        this.decision = clamp(record.decision(), 32);
        this.traceId = clamp(record.traceId(), 64);
        this.inputHash = input == null ? null : input.hex();
        this.keyVersion = input == null ? null : input.version();
        this.outcome = clamp(record.outcome(), 64);
        this.durationMs = record.durationMs();
        this.chainSeq = chainSeq;
        this.prevHash = prevHash;
        this.rowHash = AuditChain.rowHash(this);
    }

    /**
     * Cuts a value to its column's width (V8__audit.sql), as the database would refuse it: a client chooses the tool
     * name it calls, and an event the database refuses is not written. Never between the halves of a surrogate pair.
     */
    static String clamp(String value, int columnWidth) {
        if (value == null || value.length() <= columnWidth) {
            return value;
        }
        int end = Character.isHighSurrogate(value.charAt(columnWidth - 1)) ? columnWidth - 1 : columnWidth;
        return value.substring(0, end);
    }

    /**
     * The audit writer inserts rows over JDBC in batches (an EclipseLink flush per row was most of its cost under
     * load, bench/README.md); these columns must stay in step with the mapping above.
     */
    static final String INSERT = "insert into audit_event (ts, tenant_id, client_id, subject, action, tool, backend_id, "
            + "decision, trace_id, input_hash, key_version, outcome, duration_ms, chain_seq, prev_hash, row_hash) "
            + "values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

    void bindInsert(PreparedStatement insert) throws SQLException {
        insert.setLong(1, ts);
        insert.setString(2, tenantId);
        insert.setString(3, clientId);
        insert.setString(4, subject);
        insert.setString(5, action);
        insert.setString(6, tool);
        insert.setString(7, backendId);
        insert.setString(8, decision);
        insert.setString(9, traceId);
        insert.setString(10, inputHash);
        insert.setObject(11, keyVersion, Types.INTEGER);
        insert.setString(12, outcome);
        insert.setObject(13, durationMs, Types.BIGINT);
        insert.setLong(14, chainSeq);
        insert.setString(15, prevHash);
        insert.setString(16, rowHash);
    }

    /** Every chained field, in a fixed shape: what the row hash covers. */
    JsonObject chainedFields() {
        JsonObjectBuilder json = JSON.createObjectBuilder()
                .add("ts", ts).add("tenantId", tenantId).add("action", action).add("decision", decision)
                .add("chainSeq", chainSeq).add("prevHash", prevHash);
        addIfPresent(json, "clientId", clientId);
        addIfPresent(json, "subject", subject);
        addIfPresent(json, "tool", tool);
        addIfPresent(json, "backendId", backendId);
        addIfPresent(json, "traceId", traceId);
        addIfPresent(json, "inputHash", inputHash);
        addIfPresent(json, "outcome", outcome);
        if (keyVersion != null) {
            json.add("keyVersion", keyVersion);
        }
        if (durationMs != null) {
            json.add("durationMs", durationMs);
        }
        return json.build();
    }

    /** The row as the API shows it. */
    public JsonObject toJson() {
        return JSON.createObjectBuilder(chainedFields()).add("id", id).add("rowHash", rowHash).build();
    }

    private static void addIfPresent(JsonObjectBuilder json, String key, String value) {
        if (value != null) {
            json.add(key, value);
        }
    }

    public Long getId() { return id; }
    public String getTenantId() { return tenantId; }
    public long getChainSeq() { return chainSeq; }
    public String getPrevHash() { return prevHash; }
    public String getRowHash() { return rowHash; }
    public String getInputHash() { return inputHash; }
}
