export const NAME_PREFIXES = [
  'North', 'Blue', 'Bright', 'Silver', 'Red', 'Green', 'Iron', 'Swift', 'Clear', 'Deep', 'High', 'True', 'Open', 'Nova', 'Apex',
  'Stone', 'River', 'Cloud', 'Pine', 'Oak', 'Cedar', 'Maple', 'Sun', 'Star', 'Moon', 'Sea', 'Peak', 'Summit', 'Harbor', 'Granite',
  'Atlas', 'Echo', 'Vivid', 'Lumen', 'Quant', 'Terra', 'Aero', 'Hyper', 'Meta', 'Omni', 'Polar', 'Crest', 'Falcon', 'Orbit', 'Pixel',
  'Signal', 'Vector', 'Zephyr', 'Copper', 'Amber', 'Coral', 'Indigo', 'Jade', 'Scarlet', 'Cobalt', 'Onyx', 'Ember', 'Frost', 'Willow', 'Birch',
] as const;

export const NAME_ROOTS = [
  'wind', 'field', 'path', 'bridge', 'forge', 'works', 'point', 'line', 'stack', 'gate', 'light', 'mark', 'wave', 'craft', 'bit',
  'loop', 'hub', 'base', 'scale', 'shift', 'spring', 'stone', 'view', 'way', 'yard', 'lab', 'leaf', 'port', 'sense', 'flow',
] as const;

export const INDUSTRIES: readonly { industry: string; weight: number; words: readonly string[] }[] = [
  { industry: 'tech', weight: 34, words: ['Systems', 'Software', 'Labs', 'Technologies', 'Analytics', 'Cloud', 'AI', 'Digital', 'Networks', 'Data'] },
  { industry: 'finance', weight: 10, words: ['Capital', 'Financial', 'Bank', 'Insurance', 'Payments', 'Partners'] },
  { industry: 'health', weight: 9, words: ['Health', 'Medical', 'Bio', 'Therapeutics', 'Care'] },
  { industry: 'retail', weight: 10, words: ['Retail', 'Stores', 'Brands', 'Commerce', 'Market'] },
  { industry: 'manufacturing', weight: 9, words: ['Industries', 'Manufacturing', 'Robotics', 'Materials', 'Motors'] },
  { industry: 'consulting', weight: 8, words: ['Consulting', 'Group', 'Advisors', 'Solutions'] },
  { industry: 'logistics', weight: 7, words: ['Logistics', 'Freight', 'Mobility', 'Transport'] },
  { industry: 'energy', weight: 5, words: ['Energy', 'Power', 'Renewables', 'Solar'] },
  { industry: 'media', weight: 5, words: ['Media', 'Studios', 'Games', 'Publishing'] },
  { industry: 'education', weight: 3, words: ['Learning', 'Education', 'Academy'] },
];

export const BENEFITS = [
  'We offer a competitive salary, equity and a generous learning budget.',
  'You get flexible working hours, 30 days of paid holiday and a modern laptop of your choice.',
  'Our benefits include private health insurance, a pension plan and parental leave above the legal minimum.',
  'Expect a friendly team, a yearly offsite and a budget for conferences.',
  'We support you with relocation and visa sponsorship where needed.',
] as const;

export const UPDATES = [
  'Update: the hiring manager is now reviewing applications weekly.',
  'We have opened this role to candidates who need visa sponsorship.',
  'Please note: the interview process now has three steps, all of them remote.',
  'This role now includes a yearly bonus.',
] as const;
