/** Arguments at most this long are shown whole in a Redis span's statement. */
const SHOWN_ARGUMENT_CHARS = 64;
/** At most this many arguments are shown; the rest are counted. */
const SHOWN_ARGUMENTS = 3;

/**
 * The `db.query.text` of a Redis command's span: its name and first few arguments, a long one
 * (a script, a JSON value) by its length only. The instrumentation's default joins every argument
 * of an EVAL, which copies a search's whole message into a string for each call, recorded or
 * not, and would put job data into exported traces.
 */
export function redisStatement(command: string, args: ReadonlyArray<string | Buffer | number | unknown>): string {
  const shown = args.slice(0, SHOWN_ARGUMENTS).map((arg) => {
    if (Buffer.isBuffer(arg)) return `[${arg.length} bytes]`;
    const text = String(arg);
    return text.length <= SHOWN_ARGUMENT_CHARS ? text : `[${text.length} chars]`;
  });
  if (args.length > SHOWN_ARGUMENTS) shown.push(`[${args.length - SHOWN_ARGUMENTS} other arguments]`);
  return [command, ...shown].join(' ');
}
