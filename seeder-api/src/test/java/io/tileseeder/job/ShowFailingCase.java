package io.tileseeder.job;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.opentest4j.AssertionFailedError;

/**
 * Puts a test case's name, which for the generated cases of a property test shows its input, at the head of
 * its failure message. Maven Surefire reports a parameterized test's case only by method and index, so without
 * this a failure would not say which input it failed on.
 */
public final class ShowFailingCase implements TestExecutionExceptionHandler {

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        String message = "case " + context.getDisplayName() + "\n" + failure.getMessage();
        AssertionError withCase;
        if (failure instanceof AssertionFailedError assertion && assertion.isExpectedDefined()
                && assertion.isActualDefined()) {
            withCase = new AssertionFailedError(message, assertion.getExpected().getValue(),
                    assertion.getActual().getValue(), failure);
        } else if (failure instanceof AssertionError) {
            withCase = new AssertionError(message, failure);
        } else {
            failure.addSuppressed(new Throwable(message.lines().findFirst().orElse(message)));
            throw failure;
        }
        withCase.setStackTrace(failure.getStackTrace());
        throw withCase;
    }
}
