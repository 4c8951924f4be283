/**
 * The module a copy thread starts from (see early-copies.ts). The thread takes the lowest priority: it is to use the
 * part of the cores the check leaves idle, not to slow the check down.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { yieldToOtherThreads } from '../io/thread-priority.ts';
import { serveCopies, type CopyThreadData } from './copy-thread.ts';

if (!parentPort) throw new Error('copy-thread-entry runs on a worker thread of the build');
yieldToOtherThreads();
serveCopies(parentPort, workerData as CopyThreadData);
