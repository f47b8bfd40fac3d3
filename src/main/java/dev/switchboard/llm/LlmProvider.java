package dev.switchboard.llm;

import jakarta.enterprise.util.AnnotationLiteral;
import jakarta.inject.Qualifier;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Names the configured LLM provider a {@link ProviderCalls} bean guards: {@value LlmProviders#DEFAULT} for the one of
 * {@code llm.base-url}, else a name of {@code llm.providers}.
 */
@Qualifier
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.PARAMETER, ElementType.METHOD, ElementType.TYPE})
public @interface LlmProvider {

    String value();

    /** The qualifier as a value, for the extension that adds the beans and for looking one up. */
    final class Literal extends AnnotationLiteral<LlmProvider> implements LlmProvider {

        private static final long serialVersionUID = 1L;

        private final String value;

        private Literal(String value) {
            this.value = value;
        }

        public static LlmProvider of(String name) {
            return new Literal(name);
        }

        @Override
        public String value() {
            return value;
        }
    }
}
