package dev.switchboard.cluster;

import jakarta.enterprise.util.AnnotationLiteral;
import jakarta.inject.Qualifier;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Marks an event that happened on another member and is replayed here: it must not be sent back to the cluster. */
@Qualifier
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.PARAMETER, ElementType.METHOD, ElementType.TYPE})
public @interface FromOtherMember {

    final class Literal extends AnnotationLiteral<FromOtherMember> implements FromOtherMember {
        static final Literal INSTANCE = new Literal();
    }
}
