import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The operations commands as `npm run backup|restore|admin` runs them: `node server/cli/NAME.ts`. */
export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCommand(
  name: 'backup' | 'restore' | 'admin',
  args: string[],
  { env, cwd, stdin }: { env: Record<string, string>; cwd: string; stdin?: string },
): Promise<CommandResult> {
  const script = fileURLToPath(new URL(`../cli/${name}.ts`, import.meta.url));
  const child = spawn(process.execPath, [script, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', SESSION_SECRET: 'command-secret-command-secret-0123', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  child.stdin.end(stdin ?? '');
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      resolve({ code, stdout, stderr });
    });
  });
}
