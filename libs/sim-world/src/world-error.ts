export class WorldError extends Error {
  constructor(
    readonly code: 'not_found' | 'invalid_request' | 'capacity',
    message: string,
    readonly param: string | null = null,
  ) {
    super(message);
    this.name = 'WorldError';
  }
}
