import type { OpeningBase } from './market-opening.js';
import { Rng } from './prng.js';
import type { Company } from './types.js';
import { BENEFITS } from './vocab/companies.js';
import { FAMILIES } from './vocab/families.js';

/** Plain-text description of an opening at `company`, built from templates (computed on demand, never stored). */
export function describeOpening(base: OpeningBase, company: Company): string {
  const rng = new Rng(base.descriptionSeed);
  const f = base.fields;
  const family = FAMILIES.find((x) => x.family === f.jobFamily) ?? FAMILIES[0]!;
  const team = family.teams[base.teamIndex] ?? family.teams[0]!;
  const where = f.location.city ? ` in ${f.location.city}` : '';
  const duties = pickTwo(rng, family.duties);
  const skills = pickTwo(rng, family.skills);
  const years = { intern: 0, junior: 1, mid: 3, senior: 5, lead: 7, director: 10, vp: 12, c_level: 15 }[
    f.seniority ?? 'mid'
  ];
  const sentences = [
    [
      `${company.name} is hiring ${article(f.title)} ${f.title} to join the ${team} team${where}.`,
      `At ${company.name}, our ${team} team is looking for ${article(f.title)} ${f.title}${where}.`,
      `Join ${company.name} as ${article(f.title)} ${f.title} and help us grow.`,
    ][rng.int(3)]!,
    `In this role you will ${duties[0]} and ${duties[1]}.`,
    years > 0
      ? `We are looking for someone with ${years}+ years of ` +
        `experience in ${skills[0]} and a good working knowledge of ` +
        `${skills[1]}.`
      : `You are studying towards a degree and are curious about ${skills[0]} and ${skills[1]}.`,
    f.location.remote
      ? 'This is a fully remote position.'
      : f.location.city
        ? rng.chance(0.5)
          ? `You will work from our ${f.location.city} office, with up to two days a week from home.`
          : `This role is based in our ${f.location.city} office.`
        : 'This role is on-site.',
  ];
  if (f.employmentType === 'contract')
    sentences.push(`This is a ${6 + rng.int(3) * 3}-month contract with a possible extension.`);
  if (f.employmentType === 'part_time') sentences.push('This is a part-time role of 20 to 30 hours a week.');
  sentences.push(rng.pick(BENEFITS));
  return sentences.join(' ');
}

function pickTwo<T>(rng: Rng, items: readonly T[]): [T, T] {
  const a = rng.int(items.length);
  const b = (a + 1 + rng.int(items.length - 1)) % items.length;
  return [items[a]!, items[b]!];
}

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}
