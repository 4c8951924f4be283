// A worker thread for test/io/thread-priority.test.ts: it loads the TypeScript module through tsx, yields to the other
// threads, and says what it got and its thread id.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { threadId, yieldToOtherThreads } = await import('../../src/io/thread-priority.ts');
parentPort.postMessage({ yielded: yieldToOtherThreads(), tid: threadId() });
// Kept alive until the test has read its priority.
setTimeout(() => {}, 60_000);
