/**
 * Whether the asker stopped waiting (its `answer_by` has passed): it has answered its caller
 * `internal_error` and the caller retries, so a change billing made now would be paid for twice.
 * No `answer_by`: no bound.
 */
export const askerGaveUp = (answerBy: string | undefined, now = Date.now()): boolean =>
  answerBy !== undefined && Date.parse(answerBy) < now;
