package dev.switchboard.observability.timeline;

/**
 * One side's cumulative call figures for the timeline, provided as a CDI bean by the room that makes those calls
 * (the gateway, the chat loop): that room knows its own metric names, and the timeline needs no arrow up to it.
 */
public interface CallTotalsSource {

    /** The timeline series the figures belong to. */
    enum Side { GATEWAY, CHAT }

    Side side();

    /** The figures counted since start-up, read now. */
    CallTotals read();
}
