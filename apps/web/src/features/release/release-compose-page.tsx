import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Group, List, Loader, Stack, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { parseTypedDate } from '@clinicrelay/contracts/dates.ts';
import { releaseMessages, splitAddresses, type Message } from '@clinicrelay/contracts/messages.ts';
import { ApiError } from '../../api/client.ts';
import { useDocumentSources } from '../../api/document-sources.ts';
import { useOrganizationSettings } from '../../api/organization-settings.ts';
import { usePageTitle } from '../../app/page-title.ts';
import { useSession } from '../../app/session-context.ts';
import { ConfirmModal } from '../../components/confirm-modal.tsx';
import { errorDetails } from '../../components/error-details.ts';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { cachedRecipientStatus, useDeleteMessage, useReleaseMessage, useSaveDraft, useSendMessage, type SendAction } from './api.ts';
import { ComposeAttachmentsSection } from './compose-attachments-section.tsx';
import { ComposeLeaveGuard } from './compose-leave-guard.tsx';
import { ComposeMessageFields } from './compose-message-fields.tsx';
import { ComposePatientSection } from './compose-patient-section.tsx';
import { ComposeRecipients } from './compose-recipients.tsx';
import { ReviewModal } from './compose-review-modal.tsx';
import { birthDateTexts, checkBeforeSend, serverProblems, type SendProblems } from './compose-validation.ts';
import {
  blankValues,
  draftValues,
  faxDefaults,
  forwardValues,
  preselectFrom,
  replyValues,
  toDraftSave,
  type ComposeValues,
  type ReleaseComposeMode,
} from './release-compose-form.ts';
import { checkTypedDate } from '../../components/typed-date-input.tsx';
import { isFaxNumber, usableFrom } from './release-text.ts';
import { notifySent } from './send-result-notice.tsx';

export type { ReleaseComposeMode } from './release-compose-form.ts';

const titles: Record<ReleaseComposeMode, string> = {
  new: 'New message',
  draft: 'Edit draft',
  forward: 'Forward message',
  forwardDraft: 'Forward draft',
  reply: 'Reply',
  replyDraft: 'Reply draft',
};

const sendActions: Record<ReleaseComposeMode, SendAction> = {
  new: 'send',
  draft: 'send',
  forward: 'forward',
  forwardDraft: 'forward',
  reply: 'reply',
  replyDraft: 'reply',
};

const isDraftMode = (mode: ReleaseComposeMode) => mode === 'draft' || mode === 'forwardDraft' || mode === 'replyDraft';

// Where a message composed here lives once its draft is first saved, so reload and Back find it.
const draftPaths: Partial<Record<ReleaseComposeMode, string>> = {
  new: '/release/draft/',
  forward: '/release/forward/draft/',
  reply: '/release/reply/draft/',
};

// Router state of a draft started as a new message: it keeps the new message's leave prompt.
interface ComposeLocationState {
  composing?: boolean;
  // A birth date that was not a date, left out of the save: still shown, with its error, at the draft's URL.
  unsavedBirthDate?: string;
}

// Only paths inside the app, so a crafted link cannot send the user elsewhere after sending.
const safeReturnUrl = (value: string | null) => (value && value.startsWith('/') && !value.startsWith('//') ? value : '/release');

/** /release/new, /release/draft/:id, /release/forward/:id(+draft), /release/reply/:id(+draft). */
export function ReleaseComposePage({ mode }: { mode: ReleaseComposeMode }) {
  const { id = null } = useParams();
  const [params] = useSearchParams();
  const location = useLocation();
  const loaded = useReleaseMessage(mode === 'new' ? null : id);
  const settings = useOrganizationSettings();
  const sources = useDocumentSources();
  usePageTitle(titles[mode]);

  // The From is preselected from the addresses, so the form starts once they are known (or failed).
  const waiting = (mode !== 'new' && loaded.isPending) || (!isDraftMode(mode) && settings.isPending) || sources.isPending;
  if (waiting) return <Loader aria-label="Loading message" />;
  if (mode !== 'new' && loaded.error) {
    const notFound = loaded.error instanceof ApiError && loaded.error.status === 404;
    return (
      <Stack gap="xs">
        <Title order={1}>{titles[mode]}</Title>
        <Alert color="red">{notFound ? 'This message was not found.' : errorDetails(loaded.error).message}</Alert>
      </Stack>
    );
  }

  const source = loaded.data ?? null;
  // A new message's fax options start from the organization's settings; without them, all on.
  const fax = faxDefaults(settings.data);
  let initial: ComposeValues;
  if (source === null) initial = blankValues(params.get('releaseType'), fax);
  else if (isDraftMode(mode)) initial = draftValues(source);
  else if (mode === 'forward') initial = forwardValues(source, fax);
  else initial = replyValues(source, fax);
  // A reply goes out from the address the original arrived at.
  initial = preselectFrom(initial, usableFrom(sources.data), mode === 'reply' && source ? splitAddresses(source.toAddress) : []);

  return (
    <ComposeForm
      key={`${mode}:${id ?? 'new'}`}
      mode={mode}
      initial={initial}
      initialDraftId={isDraftMode(mode) ? id : null}
      originalObjectId={isDraftMode(mode) ? (source?.originalObjectId ?? null) : mode === 'new' ? null : id}
      carried={mode === 'forward' && source ? source.attachments : []}
      returnUrl={safeReturnUrl(params.get('returnUrl'))}
      unsavedBirthDate={(location.state as ComposeLocationState | null)?.unsavedBirthDate ?? null}
    />
  );
}

interface ComposeFormProps {
  mode: ReleaseComposeMode;
  initial: ComposeValues;
  initialDraftId: string | null;
  originalObjectId: string | null;
  // A forward's attachments from the original message, copied onto the draft when it is first saved.
  carried: Message['attachments'];
  returnUrl: string;
  unsavedBirthDate: string | null;
}

function ComposeForm({ mode, initial, initialDraftId, originalObjectId, carried, returnUrl, unsavedBirthDate }: ComposeFormProps) {
  const navigate = useNavigate();
  const location = useLocation();
  const { features, profile } = useSession();
  const queryClient = useQueryClient();
  const canTrack = features.has('AutomatedCarePlans');
  const action = sendActions[mode];
  const isReply = action === 'reply';

  // No schema: the inputs' maxLength keeps every value savable, dates are checked where typed, and
  // the send rules run all at once on Send (checkBeforeSend).
  const form = useForm<ComposeValues>({ initialValues: initial });
  const [draftId, setDraftId] = useState(initialDraftId);
  // Once, on arrival at the draft's URL: the text stays unsaved (the form is dirty for it) and flagged.
  useEffect(() => {
    if (!unsavedBirthDate) return;
    form.setFieldValue('patient.birthDate', unsavedBirthDate);
    form.setFieldError('patient.birthDate', checkTypedDate(unsavedBirthDate, birthDateTexts).error);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- on mount only
  }, []);
  const [problems, setProblems] = useState<string[]>([]);
  const [reviewOpen, setReviewOpen] = useState(false);
  const [deleteOpen, setDeleteOpen] = useState(false);

  const draft = useReleaseMessage(draftId);
  const saveDraft = useSaveDraft();
  const send = useSendMessage();
  const deleteMessage = useDeleteMessage();

  const attachments = draft.data?.attachments ?? [];
  // Until a forward is first saved, what leaves with it is the original's attachments.
  const outgoing = draftId === null ? carried : attachments;

  const leavingOnPurpose = useRef(false);
  const draftIdRef = useRef(draftId);
  const composing = mode === 'new' || (mode === 'draft' && (location.state as ComposeLocationState | null)?.composing === true);

  const showProblems = ({ list, fields }: SendProblems) => {
    setProblems(list);
    form.clearErrors();
    for (const [field, text] of Object.entries(fields)) form.setFieldError(field, text);
  };

  /**
   * Saves the draft (creating it the first time) and returns its id; it never refuses over one wrong field.
   * beforeSend: the save is Send's first step, so a draft it creates is not one the user kept.
   */
  const save = async ({ beforeSend = false } = {}): Promise<string> => {
    const values = form.getValues();
    const body = toDraftSave(values, { isReply, hasFax: values.to.some(isFaxNumber), canTrack, originalObjectId });
    if (draftIdRef.current === null && carried.length > 0) body.attachments = carried.map(({ id }) => ({ id }));
    if (beforeSend) body.beforeSend = true;
    const saved = await saveDraft.mutateAsync({ id: draftIdRef.current, body });
    draftIdRef.current = saved.id;
    setDraftId(saved.id);
    if (beforeSend) return saved.id;
    // A birth date left out of the save stays unsaved: the form stays dirty for it alone.
    const kept = body.patient?.birthDate || !values.patient.birthDate.trim() ? values : { ...values, patient: { ...values.patient, birthDate: '' } };
    form.resetDirty(kept);
    return saved.id;
  };

  /** A draft first saved here moves to its own URL (replacing this one), keeping returnUrl and releaseType. */
  const adoptDraftUrl = () => {
    const base = draftPaths[mode];
    const saved = draftIdRef.current;
    if (base === undefined || saved === null) return;
    leavingOnPurpose.current = true;
    const birthDate = form.getValues().patient.birthDate;
    const unsaved = birthDate.trim() !== '' && parseTypedDate(birthDate) === null ? birthDate : undefined;
    const state: ComposeLocationState = { composing: mode === 'new', unsavedBirthDate: unsaved };
    void navigate({ pathname: `${base}${saved}`, search: location.search }, { replace: true, state });
  };

  const saveWithToast = async () => {
    try {
      await save();
      const dateError = form.errors['patient.birthDate'];
      if (dateError === releaseMessages.patientBirthDateInvalid) notifySuccess('The draft was saved without the birth date, which is not a valid date.');
      else notifySuccess('The draft was saved successfully.');
      adoptDraftUrl();
    } catch (failure) {
      notifyError(errorDetails(failure).message);
    }
  };

  const openReview = () => {
    const values = form.getValues();
    const recipientStatus = cachedRecipientStatus(queryClient, values.to);
    const found = checkBeforeSend(values, { action, attachments: outgoing, planRestricted: profile.orgIsPlanRestricted === true, recipientStatus });
    showProblems(found);
    if (found.list.length === 0) setReviewOpen(true);
  };

  const confirmSend = async () => {
    // A draft made only to attempt this send must not outlive a failed send: drafts are what the user
    // saved or attached a file to. The server discards one a refused send leaves (draftSave.beforeSend)
    // unless it holds files (a forward's); this page deletes it whatever happened (a 404 if already gone).
    const madeForSend = draftIdRef.current === null;
    let id: string | null = null;
    try {
      id = await save({ beforeSend: true });
      const answer = await send.mutateAsync({ id, action });
      notifySent(answer);
      leavingOnPurpose.current = true;
      setReviewOpen(false);
      void navigate(returnUrl);
    } catch (failure) {
      setReviewOpen(false);
      const refused = failure instanceof ApiError && failure.status === 400;
      if (madeForSend && id !== null) {
        await deleteMessage.mutateAsync(id).catch(() => undefined);
        draftIdRef.current = null;
        setDraftId(null);
      }
      const { message, modelState } = errorDetails(failure);
      if (refused) showProblems(serverProblems(message, modelState));
      else notifyError(failure instanceof ApiError && failure.message ? failure.message : releaseMessages.sendFailure);
    }
  };

  const deleteDraft = async () => {
    if (draftIdRef.current !== null) await deleteMessage.mutateAsync(draftIdRef.current);
    leavingOnPurpose.current = true;
    void navigate('/release');
  };

  const ensureDraft = async () => draftIdRef.current ?? (await save());

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>{titles[mode]}</Title>
        <Group>
          {draftId !== null && (
            <Button variant="default" color="red" onClick={() => setDeleteOpen(true)}>
              Delete draft
            </Button>
          )}
          <Button variant="default" loading={saveDraft.isPending && !reviewOpen} onClick={() => void saveWithToast()}>
            Save draft
          </Button>
          <Button onClick={openReview}>Send</Button>
        </Group>
      </Group>

      {problems.length > 0 && (
        <Alert color="red" title={releaseMessages.fixErrorsHeading} withCloseButton closeButtonLabel="Dismiss errors" onClose={() => setProblems([])}>
          <List size="sm">
            {problems.map((text) => (
              <List.Item key={text} style={{ overflowWrap: 'anywhere' }}>
                {text}
              </List.Item>
            ))}
          </List>
        </Alert>
      )}

      <form onSubmit={(event) => event.preventDefault()}>
        <Stack>
          <ComposeRecipients form={form} />
          <ComposeMessageFields form={form} isReply={isReply} canTrack={canTrack} />

          <ComposePatientSection form={form} required={!isReply} />

          <ComposeAttachmentsSection draftId={draftId} attachments={attachments} carried={carried} ensureDraft={ensureDraft} onUploadsDone={adoptDraftUrl} />
        </Stack>
      </form>

      <ReviewModal
        opened={reviewOpen}
        onClose={() => setReviewOpen(false)}
        values={form.values}
        attachmentNames={outgoing.filter((a) => a.isSelected).map((a) => a.fileName)}
        sending={saveDraft.isPending || send.isPending}
        onConfirm={() => void confirmSend()}
      />
      <ConfirmModal
        opened={deleteOpen}
        onClose={() => setDeleteOpen(false)}
        title="Delete draft"
        message="Delete this draft and its attachments?"
        confirmLabel="Delete"
        danger
        successMessage={releaseMessages.draftDeleted}
        onConfirm={deleteDraft}
      />
      <ComposeLeaveGuard
        composing={composing}
        leavingOnPurpose={leavingOnPurpose}
        draftId={draftIdRef}
        isDirty={() => form.isDirty()}
        hasFrom={() => Boolean(form.getValues().fromAddress)}
        save={async () => Boolean(await save())}
        deleteDraft={(id) => deleteMessage.mutateAsync(id)}
      />
    </Stack>
  );
}

