import { useMemo } from 'react';
import { Checkbox, Fieldset, Group, Input, SegmentedControl, Select, SimpleGrid, Stack, TextInput, Textarea } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useDocumentSources } from '../../api/document-sources.ts';
import { useClassifications, useReleaseTypes } from './api.ts';
import { composeLimits, type ComposeValues } from './release-compose-form.ts';
import { formatAddress, isFaxNumber, usableFrom } from './release-text.ts';

export interface ComposeMessageFieldsProps {
  form: UseFormReturnType<ComposeValues>;
  isReply: boolean;
  /** Track Fax Responses is offered with the AutomatedCarePlans feature. */
  canTrack: boolean;
}

/** From, release type, classification, subject, body, urgency, fax options and conversion. */
export function ComposeMessageFields({ form, isReply, canTrack }: ComposeMessageFieldsProps) {
  const sources = useDocumentSources();
  const releaseTypes = useReleaseTypes();
  const classifications = useClassifications();
  const hasFax = form.values.to.some(isFaxNumber);
  const savedFrom = form.getInitialValues().fromAddress;

  const fromOptions = useMemo(() => {
    const options = usableFrom(sources.data).map((address) => ({ value: address, label: formatAddress(address) }));
    // A draft's From that is no longer usable still shows, so the user sees what to change.
    if (savedFrom && !options.some((o) => o.value === savedFrom)) options.push({ value: savedFrom, label: formatAddress(savedFrom) });
    return options;
  }, [sources.data, savedFrom]);

  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: isReply ? 2 : 3 }}>
        <Select label="From" placeholder="Choose a From address" data={fromOptions} withAsterisk allowDeselect={false} {...form.getInputProps('fromAddress')} />
        {!isReply && (
          <Select
            label="Release type"
            placeholder="Choose a release type"
            data={(releaseTypes.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
            withAsterisk
            allowDeselect={false}
            {...form.getInputProps('releaseTypeId')}
          />
        )}
        <Select
          label="Classification"
          placeholder="Choose a classification"
          data={(classifications.data ?? []).map((c) => ({ value: c.code, label: c.name }))}
          clearable
          // Choosing the chosen option again keeps it (issue 9); the clear button empties the field.
          allowDeselect={false}
          {...form.getInputProps('classificationCode')}
        />
      </SimpleGrid>
      <TextInput label="Subject" maxLength={composeLimits.subject} {...form.getInputProps('subject')} />
      <Textarea label="Body" rows={8} maxLength={composeLimits.body} {...form.getInputProps('body')} />
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
    </>
  );
}
