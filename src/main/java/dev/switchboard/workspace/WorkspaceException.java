package dev.switchboard.workspace;

/** A workspace tool refused or failed; the message is what the LLM reads as the tool's error result. */
public class WorkspaceException extends Exception {

    public WorkspaceException(String message) {
        super(message);
    }
}
