import { useEffect, useMemo, useRef, useState } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Fieldset,
  Group,
  Input,
  List,
  Loader,
  Modal,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  TagsInput,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useBlocker, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { releaseMessages } from '@clinicrelay/contracts/messages.ts';
import { ApiError } from '../../api/client.ts';
import { useOrganizationSettings } from '../../api/organization-settings.ts';
import { useSession } from '../../app/session-context.ts';
import { ConfirmModal } from '../../components/confirm-modal.tsx';
import { errorDetails } from '../../components/error-details.ts';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import {
  useAddressCache,
  useClassifications,
  useDeleteMessage,
  useDocumentSources,
  useReleaseMessage,
  useReleaseTypes,
  useSaveDraft,
  useSendMessage,
  type SendAction,
} from './api.ts';
import { AddressCacheModal } from './address-cache-modal.tsx';
import { AttachmentList } from './attachment-list.tsx';
import { AttachmentUploadModal } from './attachment-upload-modal.tsx';
import {
  blankValues,
  composeSchema,
  draftValues,
  faxDefaults,
  forwardValues,
  replyValues,
  toDraftSave,
  type ComposeValues,
  type ReleaseComposeMode,
} from './release-compose-form.ts';
import { formatAddress, isFaxNumber, normalizeAddress } from './release-text.ts';

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
}

// Only paths inside the app, so a crafted link cannot send the user elsewhere after sending.
const safeReturnUrl = (value: string | null) => (value && value.startsWith('/') && !value.startsWith('//') ? value : '/release');

/** /release/new, /release/draft/:id, /release/forward/:id(+draft), /release/reply/:id(+draft). */
export function ReleaseComposePage({ mode }: { mode: ReleaseComposeMode }) {
  const { id = null } = useParams();
  const [params] = useSearchParams();
  const loaded = useReleaseMessage(mode === 'new' ? null : id);
  const settings = useOrganizationSettings();

  if (mode !== 'new' && loaded.isPending) return <Loader aria-label="Loading message" />;
  // A new message's fax options start from the organization's settings; without them, all on.
  if (!isDraftMode(mode) && settings.isPending) return <Loader aria-label="Loading message" />;
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
  const fax = faxDefaults(settings.data);
  let initial: ComposeValues;
  if (source === null) initial = blankValues(params.get('releaseType'), fax);
  else if (isDraftMode(mode)) initial = draftValues(source);
  else if (mode === 'forward') initial = forwardValues(source, fax);
  else initial = replyValues(source, fax);

  return (
    <ComposeForm
      key={`${mode}:${id ?? 'new'}`}
      mode={mode}
      initial={initial}
      initialDraftId={isDraftMode(mode) ? id : null}
      originalObjectId={isDraftMode(mode) ? (source?.originalObjectId ?? null) : mode === 'new' ? null : id}
      carried={mode === 'forward' && source ? source.attachments : []}
      returnUrl={safeReturnUrl(params.get('returnUrl'))}
    />
  );
}

interface ComposeFormProps {
  mode: ReleaseComposeMode;
  initial: ComposeValues;
  initialDraftId: string | null;
  originalObjectId: string | null;
  // A forward's attachments from the original message, copied onto the draft when it is first saved.
  carried: { id: string; fileName: string }[];
  returnUrl: string;
}

function ComposeForm({ mode, initial, initialDraftId, originalObjectId, carried, returnUrl }: ComposeFormProps) {
  const navigate = useNavigate();
  const location = useLocation();
  const { features } = useSession();
  const canTrack = features.has('AutomatedCarePlans');
  const action = sendActions[mode];
  const isReply = action === 'reply';

  const form = useForm<ComposeValues>({ initialValues: initial, validate: schemaResolver(composeSchema, { sync: true }) });
  const [draftId, setDraftId] = useState(initialDraftId);
  const [toSearch, setToSearch] = useState('');
  const [sendErrors, setSendErrors] = useState<string[]>([]);
  const [reviewOpen, setReviewOpen] = useState(false);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const [uploadOpen, setUploadOpen] = useState(false);
  const [cacheOpen, setCacheOpen] = useState(false);

  const sources = useDocumentSources();
  const releaseTypes = useReleaseTypes();
  const classifications = useClassifications();
  const cache = useAddressCache();
  const draft = useReleaseMessage(draftId);
  const saveDraft = useSaveDraft();
  const send = useSendMessage();
  const deleteMessage = useDeleteMessage();

  const hasFax = form.values.to.some(isFaxNumber);
  const attachments = draft.data?.attachments ?? [];

  const fromOptions = useMemo(() => {
    const usable = (sources.data ?? []).filter((s) => s.status !== 3 && s.status !== 4);
    const options = usable.map((s) => ({ value: s.address.fullAddress, label: formatAddress(s.address.fullAddress) }));
    const current = initial.fromAddress;
    if (current && !options.some((o) => o.value === current)) options.push({ value: current, label: formatAddress(current) });
    return options;
  }, [sources.data, initial.fromAddress]);

  // Send, discard and delete navigate on purpose; only other ways out are asked about.
  const leavingOnPurpose = useRef(false);
  const draftIdRef = useRef(draftId);
  const composing = mode === 'new' || (mode === 'draft' && (location.state as ComposeLocationState | null)?.composing === true);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      composing &&
      !leavingOnPurpose.current &&
      currentLocation.pathname !== nextLocation.pathname &&
      (draftIdRef.current !== null || form.isDirty()),
  );

  // A From address and unsaved changes: ask Save or Discard (forward and reply never block).
  const leavePromptOpen = blocker.state === 'blocked' && Boolean(form.values.fromAddress) && form.isDirty();

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    if (leavePromptOpen) return;
    const existing = draftIdRef.current;
    if (!form.values.fromAddress && existing !== null) {
      // A draft with no From address is not worth keeping (end-user §4 "Draft lifecycle").
      deleteMessage.mutateAsync(existing).catch(() => undefined).finally(() => blocker.proceed());
      return;
    }
    blocker.proceed();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once per blocked navigation
  }, [blocker.state]);

  /** Saves the draft (creating it the first time); null when the form has errors. */
  const save = async (): Promise<string | null> => {
    if (form.validate().hasErrors) return null;
    const body = toDraftSave(form.values, { isReply, hasFax, canTrack, originalObjectId });
    if (draftIdRef.current === null && carried.length > 0) body.attachments = carried.map(({ id }) => ({ id }));
    const saved = await saveDraft.mutateAsync({ id: draftIdRef.current, body });
    draftIdRef.current = saved.id;
    setDraftId(saved.id);
    form.resetDirty();
    return saved.id;
  };

  /** A draft first saved here moves to its own URL (replacing this one), keeping returnUrl and releaseType. */
  const adoptDraftUrl = () => {
    const base = draftPaths[mode];
    const saved = draftIdRef.current;
    if (base === undefined || saved === null) return;
    leavingOnPurpose.current = true;
    const state: ComposeLocationState = { composing: mode === 'new' };
    void navigate({ pathname: `${base}${saved}`, search: location.search }, { replace: true, state });
  };

  const saveWithToast = async () => {
    try {
      if ((await save()) !== null) {
        notifySuccess('The draft was saved successfully.');
        adoptDraftUrl();
      }
    } catch (failure) {
      notifyError(errorDetails(failure).message);
    }
  };

  const ensureDraft = async () => {
    if (draftIdRef.current !== null) return draftIdRef.current;
    const id = await save();
    if (id === null) throw new Error('Please fix the form errors before attaching a file.');
    return id;
  };

  const openReview = () => {
    setSendErrors([]);
    if (!form.validate().hasErrors) setReviewOpen(true);
  };

  const confirmSend = async () => {
    try {
      const id = await save();
      if (id === null) {
        setReviewOpen(false);
        return;
      }
      const result = await send.mutateAsync({ id, action });
      notifySuccess(result.message || releaseMessages.sendSuccess);
      leavingOnPurpose.current = true;
      setReviewOpen(false);
      void navigate(returnUrl);
    } catch (failure) {
      setReviewOpen(false);
      const { message, modelState } = errorDetails(failure);
      const listed = Object.values(modelState).flat();
      if (failure instanceof ApiError && failure.status === 400) {
        setSendErrors(listed.length > 0 ? listed : [message]);
      } else {
        notifyError(failure instanceof ApiError && failure.message ? failure.message : releaseMessages.sendFailure);
      }
    }
  };

  const deleteDraft = async () => {
    if (draftIdRef.current !== null) await deleteMessage.mutateAsync(draftIdRef.current);
    leavingOnPurpose.current = true;
    void navigate('/release');
  };

  const changeTo = (tags: string[]) => {
    const normalized: string[] = [];
    let invalid: string | null = null;
    for (const tag of tags) {
      const address = normalizeAddress(tag);
      if (address === null) invalid = tag;
      else if (!normalized.includes(address)) normalized.push(address);
    }
    form.setFieldValue('to', normalized);
    form.setFieldError('to', invalid === null ? null : releaseMessages.addressInvalid);
    // The rejected text stays in the box so it can be corrected.
    if (invalid !== null) setToSearch(invalid);
  };

  const patientInput = (field: keyof ComposeValues['patient'], label: string) => (
    <TextInput label={label} {...form.getInputProps(`patient.${field}`)} />
  );

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

      {sendErrors.length > 0 && (
        <Alert color="red" title={releaseMessages.fixErrorsHeading} withCloseButton onClose={() => setSendErrors([])}>
          <List size="sm">
            {sendErrors.map((text) => (
              <List.Item key={text}>{text}</List.Item>
            ))}
          </List>
        </Alert>
      )}

      <form onSubmit={(event) => event.preventDefault()}>
        <Stack>
          <TagsInput
            label="To"
            placeholder="Direct address or fax number"
            description="Press Enter after each address."
            value={form.values.to}
            onChange={changeTo}
            searchValue={toSearch}
            onSearchChange={(value) => {
              setToSearch(value);
              if (form.errors.to) form.clearFieldError('to');
            }}
            error={form.errors.to}
            data={(cache.data ?? []).map((entry) => entry.address)}
            limit={15}
            splitChars={[',', ';']}
            acceptValueOnBlur
          />
          <Group justify="flex-end" mt={-8}>
            <Button variant="subtle" size="compact-xs" onClick={() => setCacheOpen(true)}>
              Saved Direct addresses
            </Button>
          </Group>
          <SimpleGrid cols={{ base: 1, sm: isReply ? 2 : 3 }}>
            <Select label="From" placeholder="Choose a From address" data={fromOptions} clearable {...form.getInputProps('fromAddress')} />
            {!isReply && (
              <Select
                label="Release type"
                placeholder="Choose a release type"
                data={(releaseTypes.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
                clearable
                {...form.getInputProps('releaseTypeId')}
              />
            )}
            <Select
              label="Classification"
              placeholder="Choose a classification"
              data={(classifications.data ?? []).map((c) => ({ value: c.code, label: c.name }))}
              clearable
              {...form.getInputProps('classificationCode')}
            />
          </SimpleGrid>
          <TextInput label="Subject" {...form.getInputProps('subject')} />
          <Textarea label="Body" rows={8} {...form.getInputProps('body')} />
          <Group>
            <Checkbox label="Urgent" {...form.getInputProps('isUrgent', { type: 'checkbox' })} />
          </Group>
          {hasFax && (
            <Fieldset legend="Fax options">
              <Stack gap="xs">
                <Checkbox label="Include cover sheet" {...form.getInputProps('includeCoverPage', { type: 'checkbox' })} />
                <Checkbox label="Include message body page" {...form.getInputProps('includeMessageBody', { type: 'checkbox' })} />
                <Checkbox label="Include attachment description pages" {...form.getInputProps('includeAttachmentDescriptions', { type: 'checkbox' })} />
                {canTrack && <Checkbox label="Track Fax Responses" {...form.getInputProps('trackFaxResponses', { type: 'checkbox' })} />}
              </Stack>
            </Fieldset>
          )}
          <Input.Wrapper label="Conversion">
            <div>
              <SegmentedControl
                aria-label="Conversion"
                data={[
                  { value: 'Original', label: 'Original' },
                  { value: 'Pdf', label: 'PDF' },
                  { value: 'Cda', label: 'CDA' },
                ]}
                {...form.getInputProps('conversion')}
              />
            </div>
          </Input.Wrapper>

          <Fieldset legend="Patient">
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              {patientInput('firstName', 'First name')}
              {patientInput('middleName', 'Middle name')}
              {patientInput('lastName', 'Last name')}
              <TextInput label="Birth date" placeholder="MM/DD/YYYY" {...form.getInputProps('patient.birthDate')} />
              <Select
                label="Gender"
                data={[
                  { value: 'M', label: 'Male' },
                  { value: 'F', label: 'Female' },
                  { value: 'UN', label: 'Unknown' },
                ]}
                clearable
                {...form.getInputProps('patient.gender')}
              />
              {patientInput('telephone', 'Phone')}
              {patientInput('streetAddress1', 'Street address')}
              {patientInput('streetAddress2', 'Street address 2')}
              {patientInput('city', 'City')}
              {patientInput('state', 'State')}
              {patientInput('postalCode', 'Postal code')}
            </SimpleGrid>
          </Fieldset>

          <Fieldset legend="Attachments">
            <Stack>
              {draftId !== null ? (
                <AttachmentList messageId={draftId} attachments={attachments} mode="edit" />
              ) : carried.length > 0 ? (
                <Text size="sm">Forwarded with the original: {carried.map((a) => a.fileName).join(', ')}</Text>
              ) : (
                <Text c="dimmed">No attachments added</Text>
              )}
              <Group>
                <Button variant="light" onClick={() => setUploadOpen(true)}>
                  Attach a new file
                </Button>
              </Group>
            </Stack>
          </Fieldset>
        </Stack>
      </form>

      <ReviewModal
        opened={reviewOpen}
        onClose={() => setReviewOpen(false)}
        values={form.values}
        attachmentCount={attachments.length}
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
      <AttachmentUploadModal
        opened={uploadOpen}
        onClose={() => {
          setUploadOpen(false);
          // After the upload, not during it: moving to the draft's URL remounts this form.
          adoptDraftUrl();
        }}
        ensureDraft={ensureDraft}
      />
      <AddressCacheModal opened={cacheOpen} onClose={() => setCacheOpen(false)} />
      <LeavePrompt
        opened={leavePromptOpen}
        onCancel={() => {
          blocker.reset?.();
        }}
        onSave={async () => {
          try {
            if ((await save()) === null) blocker.reset?.();
            else blocker.proceed?.();
          } catch (failure) {
            notifyError(errorDetails(failure).message);
          }
        }}
        onDiscard={async () => {
          try {
            if (draftIdRef.current !== null) await deleteMessage.mutateAsync(draftIdRef.current);
            blocker.proceed?.();
          } catch {
            notifyError(releaseMessages.discardFailure);
          }
        }}
      />
    </Stack>
  );
}

function patientName(p: ComposeValues['patient']) {
  return [p.firstName, p.middleName, p.lastName].filter((part) => part.trim() !== '').join(' ');
}

interface ReviewModalProps {
  opened: boolean;
  onClose: () => void;
  values: ComposeValues;
  attachmentCount: number;
  sending: boolean;
  onConfirm: () => void;
}

/** Review and Send: what is about to leave, before it does (Send → Review and Send → Confirm). */
function ReviewModal({ opened, onClose, values, attachmentCount, sending, onConfirm }: ReviewModalProps) {
  const name = patientName(values.patient);
  return (
    <Modal opened={opened} onClose={sending ? () => {} : onClose} title="Review and Send">
      <Stack>
        <div>
          <Text fw={500}>Recipients</Text>
          {values.to.length === 0 ? (
            <Text c="dimmed">No recipients</Text>
          ) : (
            <List size="sm">
              {values.to.map((address) => (
                <List.Item key={address}>{isFaxNumber(address) ? `Fax ${formatAddress(address)}` : address}</List.Item>
              ))}
            </List>
          )}
        </div>
        <Text size="sm">From: {values.fromAddress ? formatAddress(values.fromAddress) : 'not chosen'}</Text>
        <Text size="sm">Subject: {values.subject || '(no subject)'}</Text>
        <Text size="sm">
          Patient: {name || 'none'}
          {values.patient.birthDate && ` (born ${values.patient.birthDate})`}
        </Text>
        <Text size="sm">Attachments: {attachmentCount}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={sending}>
            Cancel
          </Button>
          <Button loading={sending} onClick={onConfirm}>
            Confirm
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

interface LeavePromptProps {
  opened: boolean;
  onCancel: () => void;
  onSave: () => Promise<void>;
  onDiscard: () => Promise<void>;
}

function LeavePrompt({ opened, onCancel, onSave, onDiscard }: LeavePromptProps) {
  const [busy, setBusy] = useState(false);
  const run = (work: () => Promise<void>) => {
    setBusy(true);
    void work().finally(() => setBusy(false));
  };
  return (
    <Modal opened={opened} onClose={busy ? () => {} : onCancel} title="Save this draft?">
      <Stack>
        <Text>This message has unsaved changes. Save it as a draft, or discard it?</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button variant="default" color="red" onClick={() => run(onDiscard)} disabled={busy}>
            Discard
          </Button>
          <Button onClick={() => run(onSave)} loading={busy}>
            Save
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
