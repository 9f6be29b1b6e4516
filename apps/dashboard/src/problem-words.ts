/**
 * An error of the server in words a person reads: a refused field is named by its label on the
 * form, with what to do, never by its path in the request (`filters.title_or[0]`) or by the
 * validator's wording (`Invalid string: must match pattern /^...$/`). Plain functions, no DOM.
 */

/** How a form names one of its fields, and optionally what a valid value looks like. */
export interface FieldWords {
  label: string;
  /** "a domain such as acme.com, without https:// or a path": said instead of the server's reason. */
  hint?: string;
}

/** A form's fields by the request path the server names (`domain`, `filters.title_or`). */
export type FieldMap = Readonly<Record<string, FieldWords>>;

export interface Problem {
  message: string;
  code?: string | undefined;
  param?: string | undefined;
}

/** `filters.title_or[2]` -> `filters.title_or`: the field, whichever item of it was wrong. */
const fieldOf = (param: string) => param.replace(/\[\d+\]/g, '');

/** `filters.title_or` -> "title or": the last name of a field without a label, in words. */
function plainName(param: string): string {
  const last = fieldOf(param).split('.').pop() ?? param;
  return last.replace(/_/g, ' ');
}

/** The validator's reason as a phrase that follows a field's name ("is too long (at most 60 characters)"). */
export function reasonInWords(reason: string): string {
  const text = reason.trim();
  let match: RegExpExecArray | null;
  if ((match = /Too big: expected string to have <=?(\d+) characters?/i.exec(text)))
    return `is too long (at most ${match[1]} characters)`;
  if ((match = /Too small: expected string to have >=?(\d+) characters?/i.exec(text)))
    return match[1] === '1' ? 'is empty' : `is too short (at least ${match[1]} characters)`;
  if ((match = /Too big: expected number to be <=?(-?[\d.]+)/i.exec(text))) return `must be at most ${match[1]}`;
  if ((match = /Too small: expected number to be >=?(-?[\d.]+)/i.exec(text))) return `must be at least ${match[1]}`;
  if ((match = /Too big: expected array to have <=?(\d+) items?/i.exec(text)))
    return `has too many entries (at most ${match[1]})`;
  if (/Too small: expected array to have >=?1 items?/i.test(text)) return 'needs at least one entry';
  if (/Invalid URL|Invalid url/.test(text)) return 'is not a web address (it starts with https://)';
  if (/expected int/i.test(text)) return 'must be a whole number';
  if (/must match pattern|Invalid string|Invalid format/i.test(text)) return 'is not in the expected form';
  if (/Invalid option|Invalid enum/i.test(text)) return 'is not one of the choices';
  if (/Invalid input|Required/i.test(text)) return 'is missing or not the right kind of value';
  // the server's own sentence (e.g. a webhook URL refused as private): kept, from lower case
  return /^[A-Z][a-z]/.test(text) ? `: ${text}` : text;
}

/** The problem in words, naming the field by its label on the form when the server named one. */
export function problemInWords(problem: Problem, fields: FieldMap = {}): string {
  const { message, code, param } = problem;
  if (!param || (code !== 'invalid_request' && code !== 'unknown_filter') || param === 'body' || param === 'path')
    return message;
  const field = fields[param] ?? fields[fieldOf(param)];
  const label = field?.label ?? plainName(param);
  if (code === 'unknown_filter') return `${label}: this field is not known.`;
  if (field?.hint) return `${label}: enter ${field.hint}.`;
  // the server's message starts with the path ("webhook_url: Invalid URL"): keep only the reason
  const reason = message.startsWith(`${param}: `) ? message.slice(param.length + 2) : message;
  const words = reasonInWords(reason);
  const sentence = words.startsWith(': ') ? `${label}${words}` : `${label} ${words}`;
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}
