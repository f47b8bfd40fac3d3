package dev.switchboard.backend.registry;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;

/** Stores the MCP client system's wire names ({@code streamableHttp}, ...) rather than Java constant names. */
@Converter
public class TransportKindConverter implements AttributeConverter<TransportKind, String> {

    @Override
    public String convertToDatabaseColumn(TransportKind kind) {
        return kind == null ? null : kind.wireName();
    }

    @Override
    public TransportKind convertToEntityAttribute(String column) {
        return column == null ? null : TransportKind.fromWireName(column)
                .orElseThrow(() -> new IllegalStateException("Unknown transport type in database: " + column));
    }
}
