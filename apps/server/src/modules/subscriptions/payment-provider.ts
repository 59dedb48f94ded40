import { randomBytes } from 'node:crypto';
import { sandboxCardMessages, type CardDetails } from '@clinicrelay/contracts/subscriptions.ts';

// The payment provider behind plan changes and reactivations (issue 14 §4). A real adapter (FastSpring, Stripe)
// implements the same two calls; the sandbox is the only one today (config PAYMENT_PROVIDER=sandbox).
export interface ChargeRequest {
  amountCents: number;
  // What is bought: the plan, and the organization's subscription reference when it has one.
  planId: string;
  subscriptionReference: string | null;
  // A new card, or null to charge the card on file (its last 4 digits when known).
  card: CardDetails | null;
  cardOnFileLast4: string | null;
  now: Date;
}

export type ChargeResult =
  | { status: 'Completed'; reference: string; subscriptionReference: string; cardLast4: string | null }
  | { status: 'Declined'; reference: string; cardLast4: string | null; reason: string }
  // The card's fields are wrong: nothing was charged and nothing is recorded.
  | { status: 'Invalid'; field: 'number' | 'expiry'; reason: string };

export interface PaymentProvider {
  readonly name: 'sandbox';
  charge(request: ChargeRequest): Promise<ChargeResult>;
}

// The sandbox's test cards, like Stripe's test mode. Any expiry in the future and any 3-4 digit code.
//   4242 4242 4242 4242   succeeds (Visa)
//   5555 5555 5555 4444   succeeds (Mastercard)
//   3782 822463 10005     succeeds (American Express)
//   4000 0000 0000 0002   declined: "Your card was declined."
//   4000 0000 0000 9995   declined: "Your card has insufficient funds."
//   4000 0000 0000 0069   declined: "Your card has expired."
//   any other number passing the Luhn check: declined, "… use a test card number." (no real card is charged)
//   a number failing the Luhn check (or not 12-19 digits): invalid, "Your card number is invalid." (nothing recorded)
export const SANDBOX_TEST_CARDS: Record<string, { outcome: 'Completed' } | { outcome: 'Declined'; reason: string }> = {
  '4242424242424242': { outcome: 'Completed' },
  '5555555555554444': { outcome: 'Completed' },
  '378282246310005': { outcome: 'Completed' },
  '4000000000000002': { outcome: 'Declined', reason: sandboxCardMessages.declined },
  '4000000000009995': { outcome: 'Declined', reason: sandboxCardMessages.insufficientFunds },
  '4000000000000069': { outcome: 'Declined', reason: sandboxCardMessages.expired },
};

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

const reference = (prefix: string, now: Date) => `${prefix}-SANDBOX-${now.getUTCFullYear()}-${randomBytes(5).toString('hex').toUpperCase()}`;

export const sandboxPaymentProvider: PaymentProvider = {
  name: 'sandbox',
  charge(request) {
    const { card, now } = request;
    const subscriptionReference = request.subscriptionReference ?? reference('SUB', now);
    // The card on file: the sandbox always charges it (a real provider may decline it too).
    if (!card) return Promise.resolve({ status: 'Completed', reference: reference('ORD', now), subscriptionReference, cardLast4: request.cardOnFileLast4 });
    const digits = card.number.replace(/[\s-]/g, '');
    if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits)) return Promise.resolve({ status: 'Invalid', field: 'number', reason: sandboxCardMessages.invalidNumber });
    // The card is good through the last day of its expiry month.
    if (Date.UTC(card.expiryYear, card.expiryMonth, 1) <= now.getTime()) return Promise.resolve({ status: 'Invalid', field: 'expiry', reason: sandboxCardMessages.expired });
    const cardLast4 = digits.slice(-4);
    const test = SANDBOX_TEST_CARDS[digits];
    if (test?.outcome === 'Completed') return Promise.resolve({ status: 'Completed', reference: reference('ORD', now), subscriptionReference, cardLast4 });
    return Promise.resolve({ status: 'Declined', reference: reference('ORD', now), cardLast4, reason: test?.reason ?? sandboxCardMessages.notATestCard });
  },
};

export function paymentProviderFor(name: 'sandbox'): PaymentProvider {
  switch (name) {
    case 'sandbox':
      return sandboxPaymentProvider;
  }
}
