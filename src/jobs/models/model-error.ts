/** An input a model cannot turn into an asset; `code` goes into the failed job's `error`. */
export class ModelInputError extends Error {
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.name = 'ModelInputError';
    this.code = code;
  }
}
