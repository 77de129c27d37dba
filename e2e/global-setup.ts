/**
 * Playwright global set-up: starts the SMTP catcher and the app server (e2e/support/harness.ts)
 * and tells the workers where they are through environment variables, which Playwright hands
 * to the worker processes it starts afterwards. The returned function is the teardown.
 */
import { startHarness } from './support/harness.ts';
import { ENV } from './support/paths.ts';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const harness = await startHarness('e2e');
  process.env[ENV.baseURL] = harness.baseURL;
  process.env[ENV.mailDir] = harness.mailDir;
  process.env[ENV.dbPath] = harness.dbPath;
  process.stdout.write(`[e2e] app ${harness.baseURL} (log ${harness.logPath}), mail caught in ${harness.mailDir}\n`);
  return async () => {
    await harness.stop();
  };
}
