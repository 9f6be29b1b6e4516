import { problemInWords, reasonInWords } from './problem-words.js';

const refused = (param: string, message: string) => ({ code: 'invalid_request', param, message });

describe('problemInWords', () => {
  const fields = {
    domain: { label: 'Company domain', hint: 'a domain such as acme.com, without https:// or a path' },
    webhook_url: { label: 'Webhook URL' },
    'filters.title_or': { label: 'Title keywords' },
    label: { label: 'Label' },
  };

  it('names the field by its label and says what to enter, never its path or the pattern', () => {
    const text = problemInWords(
      refused('domain', 'domain: Invalid string: must match pattern /^(?:[a-z0-9]...$/'),
      fields,
    );
    expect(text).toBe('Company domain: enter a domain such as acme.com, without https:// or a path.');
    expect(problemInWords(refused('webhook_url', 'webhook_url: Invalid URL'), fields)).toBe(
      'Webhook URL is not a web address (it starts with https://).',
    );
    expect(
      problemInWords(
        refused('filters.title_or[1]', 'filters.title_or[1]: Too big: expected string to have <=200 characters'),
        fields,
      ),
    ).toBe('Title keywords is too long (at most 200 characters).');
    expect(problemInWords(refused('label', 'label: Too big: expected string to have <=60 characters'), fields)).toBe(
      'Label is too long (at most 60 characters).',
    );
  });

  it("keeps the server's own sentence after the label", () => {
    expect(
      problemInWords(refused('webhook_url', 'webhook_url: The address resolves to a private network.'), fields),
    ).toBe('Webhook URL: The address resolves to a private network.');
  });

  it('words a field the form does not label by its last name, and leaves other errors as the server said them', () => {
    expect(problemInWords(refused('limit', 'limit: Too big: expected number to be <=100'))).toBe(
      'limit must be at most 100.',
    );
    expect(
      problemInWords({ code: 'unknown_filter', param: 'filters.titel_or', message: 'Unknown filter "titel_or".' }),
    ).toBe('titel or: this field is not known.');
    expect(problemInWords({ code: 'plan_required', message: 'Watches need the pro plan.' })).toBe(
      'Watches need the pro plan.',
    );
    expect(problemInWords({ code: 'invalid_request', param: 'body', message: 'The JSON body is empty.' })).toBe(
      'The JSON body is empty.',
    );
  });
});

describe('reasonInWords', () => {
  it.each([
    ['Too small: expected string to have >=1 characters', 'is empty'],
    ['Too small: expected number to be >=1', 'must be at least 1'],
    ['Too small: expected array to have >=1 items', 'needs at least one entry'],
    ['Invalid option: expected one of "live"|"test"', 'is not one of the choices'],
    ['Invalid input: expected string, received number', 'is missing or not the right kind of value'],
    ['Invalid input: expected int, received number', 'must be a whole number'],
  ])('%s -> %s', (reason, words) => {
    expect(reasonInWords(reason)).toBe(words);
  });
});
