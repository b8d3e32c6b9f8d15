// Ends the Playwright run with the same plain line as the unit tests ("E2E: N passed, N failed, N skipped").
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

export default class SummaryReporter implements Reporter {
  private passed = 0;
  private failed = 0;
  private skipped = 0;

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status === 'skipped') this.skipped += 1;
    else if (test.outcome() === 'expected' || test.outcome() === 'flaky') this.passed += 1;
    else if (result.retry === test.retries || result.status === 'passed') this.failed += 1;
  }

  onEnd(_result: FullResult): void {
    console.log(`E2E: ${this.passed} passed, ${this.failed} failed, ${this.skipped} skipped`);
  }
}
