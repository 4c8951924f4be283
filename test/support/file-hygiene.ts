/**
 * Test files share their worker's process (decision 0020), so a file that leaves the environment or the working
 * folder changed would change the files after it: this fails the file that did, naming what it left.
 */
import { afterAll, beforeAll } from 'vitest';

let env: Record<string, string | undefined>;
let cwd: string;

beforeAll(() => {
  env = { ...process.env };
  cwd = process.cwd();
});

afterAll(() => {
  const changed = [...new Set([...Object.keys(env), ...Object.keys(process.env)])].filter((name) => env[name] !== process.env[name]);
  if (changed.length > 0) throw new Error(`this test file left environment variables changed: ${changed.sort().join(', ')}`);
  if (process.cwd() !== cwd) throw new Error(`this test file left the working folder changed: ${process.cwd()}`);
});
