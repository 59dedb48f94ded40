// The dialogs' texts. The spec gives their subjects (end-user §2, screens-catalog "Terms and conditions" … "Decision")
// but not their wording, except the Identity form's messages, which live in contracts/identity-proofing.ts.
export const onboardingTexts = {
  termsTitle: 'Terms and conditions',
  resellerTermsTitle: 'Reseller terms',
  resellerTermsIntro: 'Your organization uses this product through a reseller. Please read and accept the terms below.',
  termsCheckbox: 'I have read and accept the terms and conditions',
  termsRequired: 'You must accept the terms and conditions.',
  // GET /api/eulas/current answers 404 when no terms document is published: nothing to accept, the sequence goes on.
  noTerms: 'There are no terms documents to accept at this time. You will be asked to accept them when they are published.',
  accept: 'Accept',
  continue: 'Continue',
  welcomeTitle: 'Welcome',
  welcome:
    'Welcome! Before your organization can send and receive documents, we need to verify the identity of its administrator. This takes about five minutes.',
  welcomeSteps: 'You will enter your name, date of birth and address, then answer a few questions only you can answer.',
  getStarted: 'Get started',
  notNow: 'Not now',
  verificationTitle: 'Identity verification',
  verification:
    'Your identity is checked by an identity verification provider against public records. Your Social Security number and date of birth are sent to the provider for this check only: we do not store them.',
  verificationQuiz: 'The provider will then ask a few multiple-choice questions generated from its records (for example, streets you have lived on).',
  identityTitle: 'Submit identity',
  currentAddress: 'Current address',
  formerAddress: 'Former address',
  hasFormerAddress: 'I have lived at my current address for less than two years',
  submit: 'Submit',
  quizTitle: 'Security questions',
  quizIntro: 'Please answer each question. Choose "None of the above" when no choice applies.',
  decisionTitle: 'Identity verification result',
  passed:
    'Congratulations! Your identity has been verified. We are now submitting your domain to the national address book. This takes 2-3 business days; you will receive an email when your organization is activated.',
  failed:
    'We could not verify your identity from the answers given. Please upload a copy of a government-issued photo ID (driver\'s license or passport). Our team will review it and let you know by email.',
  review:
    'Thank you. Your identity verification is under review. You will receive an email when the review is complete, usually within 2-3 business days.',
  documentLabel: 'Photo ID (image or PDF)',
  browse: 'Browse',
  close: 'Close',
  activationTitle: 'Welcome!',
  activation:
    'Your organization is being activated. Activation should finish within 2-3 business days; you will receive an email when it is complete. Until then, Intake and Release are not available.',
  dontShowAgain: "Don't show this message again",
  ok: 'Ok',
  sandbox: 'Sandbox',
  sandboxNote: 'The identity verification provider is the sandbox (test mode): no real identity check is made.',
} as const;
