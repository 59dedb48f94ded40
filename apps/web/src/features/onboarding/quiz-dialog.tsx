import { useState } from 'react';
import { Alert, Button, Group, Radio, Stack, Text } from '@mantine/core';
import { identityMessages, type IdentityProofingResult } from '@clinicrelay/contracts/identity-proofing.ts';
import { errorDetails } from '../../components/error-details.ts';
import { useAnswerQuiz } from './api.ts';
import { OnboardingModal, SandboxNote } from './onboarding-modal.tsx';
import { onboardingTexts as texts } from './onboarding-texts.ts';

/** Quiz questions: one round; the parent shows the next round while the answer carries a quizId (end-user §4 rule 3). */
export function QuizDialog({ quiz, onResult }: { quiz: IdentityProofingResult; onResult: (result: IdentityProofingResult) => void }) {
  const answerQuiz = useAnswerQuiz();
  const [choices, setChoices] = useState<Record<string, string>>({});
  const [touched, setTouched] = useState(false);
  const complete = quiz.questions.every((q) => choices[q.id]);

  const submit = () => {
    setTouched(true);
    if (!complete || !quiz.quizId) return;
    answerQuiz.mutate({ quizId: quiz.quizId, answers: quiz.questions.map((q) => ({ questionId: q.id, choiceId: choices[q.id]! })) }, { onSuccess: onResult });
  };

  // The quiz must be answered once begun: a vendor's quiz cannot be resumed later.
  return (
    <OnboardingModal title={texts.quizTitle}>
      <Stack>
        <SandboxNote provider={quiz.provider} />
        <Text>{texts.quizIntro}</Text>
        {quiz.questions.map((question) => (
          <Radio.Group
            key={question.id}
            label={question.text}
            value={choices[question.id] ?? null}
            onChange={(value) => setChoices((previous) => ({ ...previous, [question.id]: value }))}
            error={touched && !choices[question.id] ? identityMessages.answersRequired : undefined}
            required
          >
            <Stack gap={6} mt="xs">
              {question.choices.map((choice) => (
                <Radio key={choice.id} value={choice.id} label={choice.text} />
              ))}
            </Stack>
          </Radio.Group>
        ))}
        {answerQuiz.isError && <Alert color="red">{errorDetails(answerQuiz.error).message}</Alert>}
        <Group justify="flex-end">
          <Button onClick={submit} loading={answerQuiz.isPending}>
            {texts.submit}
          </Button>
        </Group>
      </Stack>
    </OnboardingModal>
  );
}
