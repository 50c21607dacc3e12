package dev.oneread.store.calls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;

class InvocationDeadlineTest {

    @Test
    void limit_shouldGiveTheCallWhatIsLeft_andNoAttemptMoreThanTwoSeconds() {
        // GIVEN an invocation with 10 s left
        InvocationDeadline deadline = InvocationDeadline.in(Duration.ofSeconds(10));
        AwsRequestOverrideConfiguration.Builder request = AwsRequestOverrideConfiguration.builder();

        // WHEN
        deadline.limit(request);

        // THEN
        AwsRequestOverrideConfiguration limited = request.build();
        assertThat(limited.apiCallTimeout())
                .get()
                .matches(t -> t.compareTo(Duration.ofSeconds(10)) <= 0 && t.compareTo(Duration.ofSeconds(9)) > 0);
        assertThat(limited.apiCallAttemptTimeout()).contains(CallAudit.MAX_ATTEMPT_TIME);
    }

    @Test
    void limit_shouldRefuseTheCall_whenTheDeadlineHasPassed() {
        InvocationDeadline deadline = InvocationDeadline.in(Duration.ZERO);

        assertThatThrownBy(() -> deadline.limit(AwsRequestOverrideConfiguration.builder()))
                .isInstanceOf(ApiCallTimeoutException.class);
    }

    @Test
    void untilSentWritesLand_shouldOutlastTheLongestInvocation_whenThereIsNoDeadline() {
        // A tool's tally has no deadline: its claims still end, after Lambda's 15 minutes and a write in flight.
        assertThat(new CallTally().deadline().untilSentWritesLand())
                .isEqualTo(Duration.ofMinutes(15).plus(InvocationDeadline.IN_FLIGHT));
    }
}
