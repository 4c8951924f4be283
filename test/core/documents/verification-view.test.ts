import { describe, expect, it } from 'vitest';
import { CHECKING_LABEL, verificationView } from '@aso-registry/core/documents/verification-view';

describe('verificationView', () => {
  it('says Checking… until the viewer and the log check have both settled', () => {
    expect(verificationView({ viewer: 'idle', log: 'idle' })).toEqual({ state: 'checking', label: CHECKING_LABEL });
    expect(verificationView({ viewer: 'fetching', log: 'verified' })).toEqual({ state: 'checking', label: CHECKING_LABEL });
    expect(verificationView({ viewer: 'loaded', log: 'checking' })).toEqual({ state: 'checking', label: 'SHA-256 matches; checking the log…' });
  });

  it('is verified once the bytes matched and the log proved the version', () => {
    expect(verificationView({ viewer: 'loaded', log: 'verified' })).toEqual({ state: 'verified', label: 'Verified: SHA-256 matches, in the log' });
    expect(verificationView({ viewer: 'loaded', log: 'unsigned' })).toEqual({ state: 'verified', label: 'Verified: SHA-256 matches, in the log (unsigned checkpoint)' });
    expect(verificationView({ viewer: 'loaded' })).toEqual({ state: 'verified', label: 'Verified: SHA-256 matches' });
  });

  it('claims only the log when no runtime here fetched the bytes', () => {
    expect(verificationView({ viewer: 'unsupported', log: 'verified' })).toEqual({ state: 'verified', label: 'Verified: in the log' });
    expect(verificationView({ viewer: 'unsupported' })).toEqual({ state: 'unchecked', label: 'Verified when the site was built' });
  });

  it('says which check failed, before anything else', () => {
    expect(verificationView({ viewer: 'failed', reason: 'hash', log: 'checking' })).toEqual({ state: 'failed', label: 'Failed: SHA-256 does not match' });
    expect(verificationView({ viewer: 'failed', reason: 'byte-length', log: 'verified' })).toEqual({ state: 'failed', label: 'Failed: byte length does not match' });
    expect(verificationView({ viewer: 'failed', reason: 'something new' })).toEqual({ state: 'failed', label: 'Failed: the file did not pass its checks' });
    expect(verificationView({ viewer: 'loaded', log: 'failed' })).toEqual({ state: 'failed', label: 'Failed: the log does not prove this version' });
  });
});
