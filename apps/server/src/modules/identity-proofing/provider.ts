import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { IdentityDecision, QuizQuestion } from '@clinicrelay/contracts/identity-proofing.ts';

// The identity as the provider receives it: the request's values, normalized. It is handed over and forgotten;
// only the provider's state below is kept (never the SSN or the date of birth).
export interface ProvidedIdentity {
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  ssn: string | null;
  phoneNumber: string | null;
  currentAddress: { addressLine: string; addressUnit: string | null; city: string; state: string; zip: string };
  formerAddress: { addressLine: string; addressUnit: string | null; city: string; state: string; zip: string } | null;
}

export type ProviderState = Record<string, unknown>;

// One step of a knowledge-based verification: another quiz to answer, or the vendor's decision.
export type ProviderStep =
  | { kind: 'quiz'; quizId: string; questions: QuizQuestion[]; state: ProviderState }
  | { kind: 'decision'; decision: IdentityDecision; state: ProviderState };

export interface IdentityProofingProvider {
  /** Shown to users (the dialogs say "sandbox") and stored with each attempt. */
  readonly name: 'sandbox';
  start(identity: ProvidedIdentity): Promise<{ reference: string } & ProviderStep>;
  answer(state: ProviderState, answers: { questionId: string; choiceId: string }[]): Promise<ProviderStep>;
}

/**
 * The sandbox: behaves like a knowledge-based-verification vendor's test mode. The SSN or the last name picks the
 * outcome (case-insensitive last name; the SSN with or without dashes):
 *
 * | SSN          | last name | outcome                                                                    |
 * |--------------|-----------|----------------------------------------------------------------------------|
 * | 000-00-0001  | Fail      | fails at once: decision N, no quiz (the manual ID upload is offered)       |
 * | 000-00-0002  | Review    | the quiz, then decision R (under review) whatever the answers             |
 * | 000-00-0003  | Twice     | the quiz, then always a second quiz round, then Y when both are right     |
 * | anything else|           | the quiz: all right → Y; a wrong answer → one second round; wrong again → N |
 *
 * The questions come from the identity: the street of the current address, the year of birth, the city, the ZIP
 * code (and the former street when one is given), each among invented choices and "None of the above".
 */
export function sandboxIdentityProofing(): IdentityProofingProvider {
  return {
    name: 'sandbox',
    async start(identity) {
      const reference = `SBX-${randomUUID()}`;
      const scenario = scenarioOf(identity);
      if (scenario === 'fail') return { reference, kind: 'decision', decision: 'N', state: { scenario } };
      const first = firstRound(identity);
      const second = secondRound(identity);
      return {
        reference,
        kind: 'quiz',
        quizId: randomUUID(),
        questions: first.questions,
        state: { scenario, round: 1, expected: first.expected, next: second },
      };
    },
    async answer(state, answers) {
      const expected = (state.expected ?? {}) as Record<string, string>;
      const allRight = Object.entries(expected).every(([questionId, choiceId]) => answers.some((a) => a.questionId === questionId && a.choiceId === choiceId));
      const round = Number(state.round ?? 1);
      const scenario = state.scenario as Scenario;
      if (scenario === 'review') return { kind: 'decision', decision: 'R', state: { scenario, round } };
      const next = state.next as Round | undefined;
      const secondRoundDue = round === 1 && next && (scenario === 'twice' || !allRight);
      if (secondRoundDue) {
        return { kind: 'quiz', quizId: randomUUID(), questions: next.questions, state: { scenario, round: 2, expected: next.expected, firstRoundRight: allRight } };
      }
      const passed = allRight && (round === 1 || scenario !== 'twice' || state.firstRoundRight === true);
      return { kind: 'decision', decision: passed ? 'Y' : 'N', state: { scenario, round } };
    },
  };
}

type Scenario = 'fail' | 'review' | 'twice' | 'standard';
interface Round {
  questions: QuizQuestion[];
  expected: Record<string, string>;
}

const SCENARIOS: { ssn: string; lastName: string; scenario: Scenario }[] = [
  { ssn: '000000001', lastName: 'fail', scenario: 'fail' },
  { ssn: '000000002', lastName: 'review', scenario: 'review' },
  { ssn: '000000003', lastName: 'twice', scenario: 'twice' },
];

function scenarioOf(identity: ProvidedIdentity): Scenario {
  const ssn = identity.ssn?.replace(/-/g, '');
  const lastName = identity.lastName.trim().toLowerCase();
  return SCENARIOS.find((s) => s.ssn === ssn || s.lastName === lastName)?.scenario ?? 'standard';
}

const NONE = 'None of the above';
const STREETS = ['Maple Avenue', 'Cedar Lane', 'Birch Court', 'Willow Way', 'Juniper Street', 'Aspen Drive', 'Sycamore Road', 'Magnolia Place'];
const CITIES = ['Springfield', 'Fairview', 'Riverton', 'Georgetown', 'Clinton', 'Franklin', 'Greenville', 'Madison'];

const choiceId = () => `c${randomBytes(6).toString('hex')}`;

function shuffle<T>(items: T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

// Three invented choices unlike the true one (compared case-insensitively).
function decoys(truth: string, pool: string[]): string[] {
  return shuffle(pool.filter((p) => p.toLowerCase() !== truth.toLowerCase())).slice(0, 3);
}

// A question with the true answer among decoys, then "None of the above" last, as vendors show it.
function question(id: string, text: string, truth: string, others: string[]): { question: QuizQuestion; answer: string } {
  const truthChoice = { id: choiceId(), text: truth };
  const choices = [...shuffle([truthChoice, ...others.map((o) => ({ id: choiceId(), text: o }))]), { id: choiceId(), text: NONE }];
  return { question: { id, text, choices }, answer: truthChoice.id };
}

// "123 Main St" → "Main St": the street without its house number.
const streetOf = (addressLine: string) => addressLine.replace(/^\s*\d+[A-Za-z]?\s+/, '').trim() || addressLine.trim();

function zipDecoys(zip: string): string[] {
  const base = Number.parseInt(zip.slice(0, 5), 10);
  const start = Number.isFinite(base) ? base : 10000;
  return [start + 17, start + 342, start - 211].map((n) => String(((n % 90000) + 90000) % 90000 + 10000).padStart(5, '0'));
}

function toRound(items: { question: QuizQuestion; answer: string }[]): Round {
  return { questions: items.map((i) => i.question), expected: Object.fromEntries(items.map((i) => [i.question.id, i.answer])) };
}

function firstRound(identity: ProvidedIdentity): Round {
  const street = streetOf(identity.currentAddress.addressLine);
  const year = Number(identity.dateOfBirth.slice(0, 4));
  const years = shuffle([-7, -4, -2, 3, 5, 9].map((d) => String(year + d))).slice(0, 3);
  return toRound([
    question('q1', 'Which of these streets have you lived on?', street, decoys(street, STREETS)),
    question('q2', 'In which year were you born?', String(year), years),
    question('q3', `In which city is ${street} located?`, identity.currentAddress.city, decoys(identity.currentAddress.city, CITIES)),
  ]);
}

// The second round asks what the first did not; it holds no date of birth and no SSN.
function secondRound(identity: ProvidedIdentity): Round {
  const zip = identity.currentAddress.zip.slice(0, 5);
  const items = [question('q4', 'Which of these ZIP codes have you lived in?', zip, zipDecoys(zip))];
  if (identity.formerAddress) {
    const former = streetOf(identity.formerAddress.addressLine);
    items.push(question('q5', 'Which of these streets have you also lived on?', former, decoys(former, STREETS)));
  } else {
    items.push(question('q5', 'In which state is your current address?', identity.currentAddress.state, decoys(identity.currentAddress.state, ['NV', 'MT', 'KS', 'VT', 'ME', 'DE'])));
  }
  return toRound(items);
}
