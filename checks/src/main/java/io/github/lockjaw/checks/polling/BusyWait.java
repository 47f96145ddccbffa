package io.github.lockjaw.checks.polling;

import io.github.lockjaw.model.MethodRef;
import io.github.lockjaw.model.Value;

/**
 * A busy-wait the query found, as the message and the source fix need it.
 *
 * @param loop the loop's id in its method
 * @param loopLine the line of the loop's head (the source engine reports at the loop)
 * @param poll the polling call's operation index (for a stream, the match call)
 * @param polled what it polls
 * @param shape one object, or every element of a collection
 * @param subject the polled object (the helper's argument when read through a helper)
 * @param helper the helper the poll is read through, or {@code null}
 * @param flag whether the poll is stored in a local flag
 * @param work what a pass does besides polling
 * @param onlyWaits whether the loop does nothing but wait: one exit, the poll's, and only pauses
 * @param exitReturn the operation index of the {@code return} the loop leaves through, or -1
 */
public record BusyWait(
    int loop,
    int loopLine,
    int poll,
    BlockingKnowledge.PolledState polled,
    PolledTest.Shape shape,
    Value subject,
    MethodRef helper,
    boolean flag,
    PassWork.Work work,
    boolean onlyWaits,
    int exitReturn) {

  /**
   * The finding's message: the problem and the blocking call to use instead. {@code subject} is the
   * polled object as people read it, followed by a dot ({@code worker.}), or empty; {@code
   * collection} names the collection of an {@link PolledTest.Shape#EACH} wait; {@code capMillis},
   * when positive, the longest a capped loop waits; {@code noFix}, when not null, why the source
   * engine offers no fix for a loop that only waits.
   */
  String message(String subject, String collection, long capMillis, String noFix) {
    if (shape == PolledTest.Shape.EACH) {
      String type = polled.typeSimpleName();
      return "Busy-wait: this loop polls "
          + type
          + "."
          + polled.method()
          + "() on every element of "
          + collection
          + " until each is done, burning a CPU while it waits. Block on each in turn instead: "
          + "for ("
          + type
          + " each : "
          + collection
          + ") each."
          + polled.awaitForDisplay()
          + "; (No automatic fix: lockjaw does not rewrite loops over several "
          + type
          + "s.)";
    }
    String method = polled.method().equals("exitValue") ? "isAlive" : polled.method();
    String problem =
        "Busy-wait: this loop polls "
            + subject
            + method
            + "() until "
            + polled.event()
            + " instead of blocking, burning a CPU and adding latency while it waits.";
    if (!onlyWaits
        && capMillis > 0
        && polled.timed().equals(polled.awaitMethodName() + "(millis)")) {
      // a wait that gives up after N passes of P ms keeps that cap in one timed block
      return problem
          + " It gives up after "
          + capMillis
          + " ms (its pass counter times its pause), so block once with the same cap: "
          + subject
          + polled.awaitMethodName()
          + "("
          + capMillis
          + ") instead of the loop. (No automatic fix: the loop does more than wait.)";
    }
    if (!onlyWaits) {
      return problem
          + " It also does other work or has another exit on each pass, so keep the loop but"
          + " block with a timeout in it: "
          + subject
          + polled.timed()
          + " instead of the pause. (No automatic fix: the loop does more than wait.)";
    }
    return problem
        + " Block in "
        + subject
        + polled.awaitForDisplay()
        + " instead."
        + (noFix == null ? "" : " (No automatic fix: " + noFix + ".)");
  }
}
