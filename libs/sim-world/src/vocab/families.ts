import type { JobFamily, Seniority } from '../types.js';

export interface FamilyInfo {
  family: JobFamily;
  /** Mid-level yearly base in USD (US market). */
  baseUsd: number;
  /** Role names without a seniority word. */
  roles: readonly string[];
  /** Optional specialisations appended as " (X)" or ", X". */
  specialties: readonly string[];
  /** Department name used for "Director of X", "VP of X". */
  area: string;
  chief: string;
  teams: readonly string[];
  duties: readonly string[];
  skills: readonly string[];
}

export const FAMILIES: readonly FamilyInfo[] = [
  {
    family: 'engineering',
    baseUsd: 125000,
    area: 'Engineering',
    chief: 'Chief Technology Officer',
    roles: [
      'Software Engineer',
      'Backend Engineer',
      'Frontend Engineer',
      'Full Stack Developer',
      'DevOps Engineer',
      'Site Reliability Engineer',
      'Platform Engineer',
      'Mobile Engineer',
      'QA Engineer',
      'Security Engineer',
      'Embedded Software Engineer',
      'Cloud Engineer',
    ],
    specialties: [
      'Go',
      'Java',
      'Python',
      'TypeScript',
      'React',
      'Kotlin',
      'iOS',
      'Android',
      'Kubernetes',
      'Payments',
      'Rust',
      'C++',
    ],
    teams: ['platform', 'payments', 'core product', 'infrastructure', 'growth', 'mobile'],
    duties: [
      'design, build and operate services used by millions of customers',
      'own features from design document to production',
      'improve the reliability and performance of our systems',
      'review code and mentor other engineers',
      'work closely with product and design on new features',
      'automate our build, test and release pipeline',
    ],
    skills: [
      'distributed systems',
      'a modern programming language',
      'cloud infrastructure',
      'automated testing',
      'API design',
      'relational databases',
    ],
  },
  {
    family: 'data',
    baseUsd: 118000,
    area: 'Data',
    chief: 'Chief Data Officer',
    roles: [
      'Data Engineer',
      'Data Scientist',
      'Data Analyst',
      'Machine Learning Engineer',
      'Analytics Engineer',
      'BI Developer',
      'Research Scientist',
    ],
    specialties: ['NLP', 'Computer Vision', 'Forecasting', 'Experimentation', 'dbt', 'Spark', 'Marketing Analytics'],
    teams: ['data platform', 'analytics', 'machine learning', 'insights'],
    duties: [
      'build reliable data pipelines',
      'turn raw data into decisions the business can act on',
      'train, evaluate and ship machine learning models',
      'define and track the metrics that matter',
      'partner with stakeholders across the company',
    ],
    skills: ['SQL', 'Python', 'statistics', 'data modelling', 'a modern data stack', 'experiment design'],
  },
  {
    family: 'design',
    baseUsd: 105000,
    area: 'Design',
    chief: 'Chief Design Officer',
    roles: [
      'Product Designer',
      'UX Designer',
      'UI Designer',
      'UX Researcher',
      'Visual Designer',
      'Content Designer',
      'Interaction Designer',
    ],
    specialties: ['Mobile', 'Design Systems', 'B2B', 'Growth', 'Accessibility'],
    teams: ['design', 'product design', 'brand', 'user research'],
    duties: [
      'shape the experience of our product end to end',
      'run research with customers and turn it into clear designs',
      'prototype quickly and iterate with engineers',
      'evolve our design system',
    ],
    skills: ['Figma', 'user research', 'interaction design', 'visual design', 'prototyping'],
  },
  {
    family: 'product',
    baseUsd: 128000,
    area: 'Product',
    chief: 'Chief Product Officer',
    roles: [
      'Product Manager',
      'Technical Product Manager',
      'Product Owner',
      'Product Operations Manager',
      'Product Marketing Manager',
    ],
    specialties: ['Platform', 'Growth', 'Payments', 'Mobile', 'AI', 'Enterprise'],
    teams: ['product', 'platform', 'growth', 'enterprise'],
    duties: [
      'own the roadmap of a product area',
      'talk to customers every week',
      'work with engineering and design to ship outcomes, not output',
      'define success metrics and follow them up',
    ],
    skills: ['product discovery', 'prioritisation', 'stakeholder management', 'data-informed decision making'],
  },
  {
    family: 'sales',
    baseUsd: 90000,
    area: 'Sales',
    chief: 'Chief Revenue Officer',
    roles: [
      'Account Executive',
      'Sales Development Representative',
      'Business Development Representative',
      'Account Manager',
      'Sales Engineer',
      'Partner Manager',
      'Inside Sales Representative',
    ],
    specialties: ['Mid-Market', 'Enterprise', 'SMB', 'DACH', 'EMEA', 'Public Sector'],
    teams: ['sales', 'revenue', 'commercial', 'partnerships'],
    duties: [
      'build and manage a healthy pipeline',
      'run discovery calls and demos',
      'close new business and expand existing accounts',
      'work with marketing on campaigns',
    ],
    skills: ['B2B sales', 'CRM tools', 'negotiation', 'consultative selling'],
  },
  {
    family: 'marketing',
    baseUsd: 88000,
    area: 'Marketing',
    chief: 'Chief Marketing Officer',
    roles: [
      'Marketing Manager',
      'Growth Marketing Manager',
      'Content Marketing Manager',
      'SEO Specialist',
      'Brand Manager',
      'Performance Marketing Manager',
      'Social Media Manager',
      'Marketing Coordinator',
    ],
    specialties: ['B2B', 'Lifecycle', 'Paid Social', 'Events', 'EMEA'],
    teams: ['marketing', 'growth', 'brand', 'communications'],
    duties: [
      'plan and run multi-channel campaigns',
      'grow our audience and pipeline',
      'write content our customers want to read',
      'measure what works and double down on it',
    ],
    skills: ['campaign management', 'marketing analytics', 'copywriting', 'marketing automation'],
  },
  {
    family: 'customer_support',
    baseUsd: 52000,
    area: 'Customer Support',
    chief: 'Chief Customer Officer',
    roles: [
      'Customer Support Specialist',
      'Customer Success Manager',
      'Technical Support Engineer',
      'Support Agent',
      'Customer Service Representative',
      'Implementation Specialist',
    ],
    specialties: ['German speaking', 'French speaking', 'Enterprise', 'Tier 2', 'Night Shift'],
    teams: ['support', 'customer success', 'customer experience'],
    duties: [
      'help customers by chat, e-mail and phone',
      'solve problems at the first contact whenever possible',
      'turn customer feedback into product improvements',
      'onboard new customers',
    ],
    skills: ['customer service', 'clear written communication', 'ticketing tools', 'troubleshooting'],
  },
  {
    family: 'operations',
    baseUsd: 72000,
    area: 'Operations',
    chief: 'Chief Operating Officer',
    roles: [
      'Operations Manager',
      'Business Operations Analyst',
      'Supply Chain Analyst',
      'Logistics Coordinator',
      'Project Manager',
      'Office Manager',
      'Procurement Specialist',
    ],
    specialties: ['EMEA', 'Warehouse', 'Revenue Operations', 'Facilities'],
    teams: ['operations', 'business operations', 'supply chain', 'logistics'],
    duties: [
      'keep day-to-day operations running smoothly',
      'improve processes and remove bottlenecks',
      'coordinate with suppliers and internal teams',
      'report on operational metrics',
    ],
    skills: ['process improvement', 'spreadsheets', 'project management', 'vendor management'],
  },
  {
    family: 'finance',
    baseUsd: 92000,
    area: 'Finance',
    chief: 'Chief Financial Officer',
    roles: [
      'Financial Analyst',
      'Accountant',
      'Controller',
      'FP&A Analyst',
      'Payroll Specialist',
      'Tax Manager',
      'Accounts Payable Specialist',
    ],
    specialties: ['Revenue', 'Group Reporting', 'Treasury', 'Audit'],
    teams: ['finance', 'accounting', 'FP&A', 'treasury'],
    duties: [
      'own the monthly close',
      'build forecasts and budgets',
      'support audits and regulatory reporting',
      'partner with business leaders on spending',
    ],
    skills: ['accounting standards', 'financial modelling', 'ERP systems', 'attention to detail'],
  },
  {
    family: 'hr',
    baseUsd: 78000,
    area: 'People',
    chief: 'Chief People Officer',
    roles: [
      'Recruiter',
      'Talent Acquisition Partner',
      'HR Business Partner',
      'People Operations Specialist',
      'Compensation Analyst',
      'Learning and Development Manager',
    ],
    specialties: ['Technical', 'EMEA', 'Executive Search', 'Benefits'],
    teams: ['people', 'talent', 'HR'],
    duties: [
      'hire great people for fast-growing teams',
      'advise managers on people topics',
      'run our performance and compensation cycles',
      'make every employee experience a good one',
    ],
    skills: ['recruiting', 'employment law basics', 'HR systems', 'coaching'],
  },
  {
    family: 'legal',
    baseUsd: 125000,
    area: 'Legal',
    chief: 'General Counsel',
    roles: [
      'Legal Counsel',
      'Corporate Lawyer',
      'Paralegal',
      'Compliance Manager',
      'Privacy Counsel',
      'Contract Manager',
    ],
    specialties: ['Commercial', 'Employment', 'Data Protection', 'Regulatory'],
    teams: ['legal', 'compliance', 'privacy'],
    duties: [
      'draft and negotiate commercial contracts',
      'advise the business on legal risk',
      'keep us compliant with regulation',
      'support corporate transactions',
    ],
    skills: ['contract law', 'regulatory compliance', 'negotiation', 'clear drafting'],
  },
];

export const SENIORITY_WEIGHTS: Readonly<Record<Seniority, number>> = {
  intern: 4,
  junior: 15,
  mid: 35,
  senior: 28,
  lead: 10,
  director: 5,
  vp: 2,
  c_level: 1,
};

export const SENIORITY_PAY: Readonly<Record<Seniority, number>> = {
  intern: 0.35,
  junior: 0.7,
  mid: 1,
  senior: 1.3,
  lead: 1.55,
  director: 1.9,
  vp: 2.4,
  c_level: 3,
};

/** Family mix per industry (same order as FAMILIES). */
export const INDUSTRY_FAMILY_WEIGHTS: Readonly<Record<string, readonly number[]>> = {
  tech: [40, 10, 6, 7, 12, 7, 7, 4, 3, 3, 1],
  finance: [14, 10, 2, 4, 15, 5, 10, 12, 20, 5, 3],
  health: [8, 6, 2, 3, 14, 6, 16, 28, 7, 7, 3],
  retail: [8, 5, 4, 3, 18, 14, 20, 18, 5, 4, 1],
  manufacturing: [20, 4, 2, 3, 14, 5, 6, 32, 8, 5, 1],
  consulting: [18, 15, 4, 5, 20, 6, 4, 10, 9, 6, 3],
  logistics: [10, 6, 1, 3, 14, 4, 12, 38, 6, 5, 1],
  energy: [22, 8, 1, 3, 12, 4, 6, 28, 8, 5, 3],
  media: [16, 8, 14, 6, 14, 22, 6, 6, 4, 3, 1],
  education: [14, 6, 8, 6, 14, 12, 18, 10, 4, 6, 2],
};

/** A title for a role at a seniority ("Senior Backend Engineer", "Director of Engineering"). */
export function buildTitle(
  info: FamilyInfo,
  role: string,
  seniority: Seniority,
  specialty: string | null,
  variant: number,
): string {
  const withSpecialty = (t: string): string =>
    specialty ? (variant % 2 === 0 ? `${t} (${specialty})` : `${t}, ${specialty}`) : t;
  switch (seniority) {
    case 'intern':
      return variant % 3 === 0 ? `${role} Intern` : `${role} Internship`;
    case 'junior':
      return withSpecialty(variant % 4 === 0 ? `Associate ${role}` : `Junior ${role}`);
    case 'mid':
      return withSpecialty(role);
    case 'senior':
      return withSpecialty(`Senior ${role}`);
    case 'lead':
      if (info.family === 'engineering' || info.family === 'data')
        return withSpecialty(
          variant % 3 === 0 ? `Staff ${role}` : variant % 3 === 1 ? `Lead ${role}` : `Principal ${role}`,
        );
      return withSpecialty(variant % 2 === 0 ? `Lead ${role}` : `${role} Team Lead`);
    case 'director':
      return variant % 2 === 0 ? `Director of ${info.area}` : `${info.area} Director`;
    case 'vp':
      return variant % 2 === 0 ? `VP of ${info.area}` : `Vice President, ${info.area}`;
    case 'c_level':
      return info.chief;
  }
}
