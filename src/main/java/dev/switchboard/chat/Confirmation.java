package dev.switchboard.chat;

import dev.switchboard.platform.ApiException;

/**
 * What a confirm came to: the updated record, or the API error that says why it was refused. Returned rather than
 * thrown so that a refused confirm ends its transaction normally (a throw inside it is logged as an incident).
 */
public record Confirmation(ToolCallRecord decided, ApiException refusal) {

    static Confirmation applied(ToolCallRecord decided) {
        return new Confirmation(decided, null);
    }

    static Confirmation refused(ApiException refusal) {
        return new Confirmation(null, refusal);
    }

    public ToolCallRecord orThrow() {
        if (refusal != null) {
            throw refusal;
        }
        return decided;
    }
}
