import { describe, expect, it } from 'vitest';
import { connectionLimits, DEFAULT_CONNECTION_LIMITS, DEFAULT_UPLOAD_LIMITS, uploadLimits } from '../../../src/jobs/service/options.ts';

describe('connectionLimits and uploadLimits', () => {
  it('fill in the defaults, an undefined field included', () => {
    expect(connectionLimits()).toEqual(DEFAULT_CONNECTION_LIMITS);
    expect(connectionLimits({ headersTimeoutMs: undefined, maxConnectionsPerAddress: 0 })).toEqual({ ...DEFAULT_CONNECTION_LIMITS, maxConnectionsPerAddress: 0 });
    expect(uploadLimits({ maxUploadsPerKey: 2 })).toEqual({ ...DEFAULT_UPLOAD_LIMITS, maxUploadsPerKey: 2 });
  });

  it('name the field that is wrong', () => {
    expect(() => connectionLimits({ requestTimeoutMs: -1 })).toThrow('connections.requestTimeoutMs must be a whole number of at least 0, got -1');
    expect(() => connectionLimits({ keepAliveTimeoutMs: 0 })).toThrow('connections.keepAliveTimeoutMs must be a whole number of at least 1, got 0');
    expect(() => connectionLimits({ idleTimeoutMs: 2 ** 31 })).toThrow('connections.idleTimeoutMs must be at most 2147483647 ms, got 2147483648');
    expect(() => connectionLimits({ headersTimeoutMs: 5000, requestTimeoutMs: 1000 })).toThrow(
      'connections.headersTimeoutMs (5000) must not exceed connections.requestTimeoutMs (1000): the headers are part of the request',
    );
    // No request limit leaves the header limit free.
    expect(connectionLimits({ headersTimeoutMs: 5000, requestTimeoutMs: 0 }).headersTimeoutMs).toBe(5000);
    expect(() => uploadLimits({ maxUploads: 0 })).toThrow('uploads.maxUploads must be a whole number of at least 1, got 0');
    expect(() => uploadLimits({ maxUploadsPerKey: 1.5 })).toThrow('uploads.maxUploadsPerKey must be a whole number of at least 1, got 1.5');
  });
});
