import { SKETCH_SIZE, resemblance, sketchText } from './text-sketch.js';

const FULL =
  'Join Lumenfield Stores as a Junior Technical Support ' +
  'Engineer (Tier 2) and help us grow. In this role you will ' +
  'turn customer feedback into product improvements and onboard ' +
  'new customers. ' +
  'We are looking for someone with 1+ years of experience in ' +
  'ticketing tools and a good working knowledge of clear ' +
  'written communication. This role is based in our São Paulo ' +
  'office. ' +
  'You get flexible working hours, 30 days of paid holiday and a modern laptop of your choice.';
const OTHER_OPENING =
  'Join Lumenfield Stores as a Junior Technical Support ' +
  'Engineer (Tier 2) and help us grow. In this role you will ' +
  'help customers by chat, e-mail and phone and solve problems ' +
  'at the first contact whenever possible. ' +
  'We are looking for someone with 1+ years of experience in ' +
  'customer service and a good working knowledge of ' +
  'troubleshooting. This role is based in our São Paulo office. ' +
  'We support you with relocation and visa sponsorship where needed.';

describe('sketchText', () => {
  it('returns null for missing or too short texts', () => {
    expect(sketchText(null)).toBeNull();
    expect(sketchText('')).toBeNull();
    expect(sketchText('Great job.')).toBeNull();
  });

  it('marks snippets as truncated and drops their possibly cut last word', () => {
    const snippet = sketchText(`${FULL.slice(0, 150).replace(/\s+\S*$/, '')}…`)!;
    expect(snippet.truncated).toBe(true);
    expect(sketchText(FULL)!.truncated).toBe(false);
  });

  it('is insensitive to case, accents, punctuation and markup left-overs', () => {
    const a = sketchText(FULL)!;
    const b = sketchText(FULL.toUpperCase().replace(/São/g, 'SAO').replace(/\./g, ' .\n'))!;
    expect(resemblance(a, b)).toEqual({ jaccard: 1, containment: 1 });
  });
});

describe('resemblance', () => {
  it('finds a snippet contained in its full description', () => {
    const snippet = sketchText(`${FULL.slice(0, 150).replace(/\s+\S*$/, '')}…`)!;
    expect(resemblance(snippet, sketchText(FULL)!).containment).toBeGreaterThanOrEqual(0.9);
  });

  it('sees an appended update sentence or inserted headings as nearly the same text', () => {
    const updated = `${FULL} Update: the hiring manager is now reviewing applications weekly.`;
    const withHeadings = `About the role\n\n${FULL.replace('We are looking', 'What we offer\n\n- We are looking')}`;
    expect(resemblance(sketchText(FULL)!, sketchText(updated)!).containment).toBeGreaterThanOrEqual(0.9);
    expect(resemblance(sketchText(FULL)!, sketchText(withHeadings)!).containment).toBeGreaterThanOrEqual(0.8);
  });

  it('tells two template-built descriptions of different openings apart', () => {
    const r = resemblance(sketchText(FULL)!, sketchText(OTHER_OPENING)!);
    // same opening sentence and office line, different duties, skills and benefits
    expect(r.containment).toBeLessThan(0.7);
    expect(r.jaccard).toBeLessThan(0.4);
  });

  it('estimates long texts from the bottom-k sketch close to the exact value', () => {
    const words = Array.from({ length: 600 }, (_, i) => `w${i}`);
    const a = sketchText(words.join(' '))!;
    const b = sketchText(
      words
        .slice(0, 450)
        .concat(Array.from({ length: 150 }, (_, i) => `x${i}`))
        .join(' '),
    )!;
    expect(a.hashes.length).toBe(SKETCH_SIZE);
    expect(a.size).toBe(598);
    // exact Jaccard: 448 shared shingles of 598 + 598 - 448
    expect(resemblance(a, b).jaccard).toBeGreaterThan(0.45);
    expect(resemblance(a, b).jaccard).toBeLessThan(0.75);
  });
});
