import { describe, expect, it } from 'vitest';
import { PublishError } from '../../src/publish/publish-error.ts';
import { parseProviderOptions, parseSubmitArgs, parseTags } from '../../src/publish/submit-options.ts';

/** The PublishError a call throws. */
function thrown(call: () => unknown): PublishError {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(PublishError);
    return error as PublishError;
  }
  throw new Error('expected a PublishError');
}

describe('parseSubmitArgs', () => {
  it('reads every flag', () => {
    const parsed = parseSubmitArgs([
      '--image', 'photo.jpg', '--model', 'relief', '--object', 'oak-chair', '--name', 'Oak chair', '--description', 'A chair.',
      '--tags', 'a, b,,c', '--license', 'CC0-1.0', '--bump', 'minor', '--api', 'http://127.0.0.1:1', '--publisher', 'ada',
      '--no-commit', '--timeout', '90',
    ]);
    expect(parsed).toEqual({
      image: 'photo.jpg', model: 'relief', object: 'oak-chair', name: 'Oak chair', description: 'A chair.', tags: ['a', 'b', 'c'],
      license: 'CC0-1.0', bump: 'minor', version: undefined, api: 'http://127.0.0.1:1', publisher: 'ada', commit: false,
      resume: undefined, correct: undefined, reason: undefined, timeoutMs: 90_000, maxAssetBytes: undefined,
    });
  });

  it('commits by default and leaves what is not given undefined', () => {
    expect(parseSubmitArgs([])).toMatchObject({ commit: true, tags: undefined, timeoutMs: undefined, bump: undefined });
    expect(parseSubmitArgs(['--resume', 'job-1', '--timeout=1.2345'])).toMatchObject({ resume: 'job-1', timeoutMs: 1235 });
    expect(parseSubmitArgs(['--correct', 'chair@1.0.0', '--reason', 'typo'])).toMatchObject({ correct: 'chair@1.0.0', reason: 'typo' });
    expect(parseSubmitArgs(['-h'])).toMatchObject({ help: true });
    expect(parseSubmitArgs([])).not.toHaveProperty('help');
  });

  it('reads the asset size limit in whole MiB', () => {
    expect(parseSubmitArgs(['--max-asset-mb', '64']).maxAssetBytes).toBe(64 * 1024 * 1024);
    for (const v of ['0.5', '0', 'lots']) {
      expect(thrown(() => parseSubmitArgs(['--max-asset-mb', v])).message).toBe(`--max-asset-mb must be a whole number of MiB, at least 1, not "${v}"`);
    }
  });

  it('refuses a bad bump or timeout, naming the value', () => {
    expect(thrown(() => parseSubmitArgs(['--bump', 'huge'])).message).toBe('--bump must be patch, minor or major, not "huge"');
    for (const t of ['-1', '0', 'soon', 'Infinity']) {
      expect(thrown(() => parseSubmitArgs([`--timeout=${t}`])).message).toBe(`--timeout must be a positive number of seconds, not "${t}"`);
    }
  });

  it('refuses unknown flags, missing values and positional arguments as usage errors', () => {
    for (const argv of [['--colour', 'red'], ['--image'], ['photo.jpg']]) {
      const error = thrown(() => parseSubmitArgs(argv));
      expect(error.exitCode, argv.join(' ')).toBe(2);
    }
  });
});

describe('parseTags', () => {
  it('trims tags and drops empty ones', () => {
    expect(parseTags(' wood , oak,, ,chair ')).toEqual(['wood', 'oak', 'chair']);
    expect(parseTags('')).toEqual([]);
  });

  it('refuses a tag given twice', () => {
    expect(thrown(() => parseTags('a,b, a')).message).toBe('--tags names "a" twice; tags must be unique');
  });
});

describe('--provider and --option', () => {
  it('reads the provider and every option, typed as JSON where they read as JSON', () => {
    const parsed = parseSubmitArgs([
      '--provider', 'meshy', '--model', 'meshy-6', '--option', 'target_polycount=30000', '--option', 'should_texture=false',
      '--option', 'topology=quad', '--option', 'images=["@image"]', '--option', 'seed="42"', '--option', 'texture_prompt=wood, oiled',
    ]);
    expect(parsed).toMatchObject({ provider: 'meshy', model: 'meshy-6' });
    expect(parsed.options).toEqual({ target_polycount: 30000, should_texture: false, topology: 'quad', images: ['@image'], seed: '42', texture_prompt: 'wood, oiled' });
    expect(parseSubmitArgs([])).not.toHaveProperty('provider');
    expect(parseSubmitArgs([])).not.toHaveProperty('options');
  });

  it('refuses an unknown provider and a malformed or repeated option, naming them', () => {
    expect(thrown(() => parseSubmitArgs(['--provider', 'nerfstudio'])).message).toBe('--provider must be aso, meshy, tripo, fal or replicate, not "nerfstudio"');
    expect(thrown(() => parseProviderOptions(['polycount'])).message).toBe('--option "polycount" must be key=value, with a key of letters, digits and _ . -');
    expect(thrown(() => parseProviderOptions(['=3'])).exitCode).toBe(2);
    expect(thrown(() => parseProviderOptions(['a=1', 'a=2'])).message).toBe('--option a is given twice');
    expect(thrown(() => parseProviderOptions(['a={oops'])).message).toMatch(/^--option a: the value starts like JSON but is not \(/);
  });
});
