import { useState } from 'react';
import { Button, Group, TagsInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { releaseMessages } from '@clinicrelay/contracts/messages.ts';
import { useAddressCache } from './api.ts';
import { AddressCacheModal } from './address-cache-modal.tsx';
import type { ComposeValues } from './release-compose-form.ts';
import { normalizeAddress } from './release-text.ts';

// A pasted or typed list: "a@x.org; b@y.org, 503-555-0101" and one address a line. Spaces do not
// separate: a fax number is often typed "(503) 555-0101".
const SEPARATORS = /[;,\r\n]+/;

/** The To field (address tags with the cached Direct addresses as suggestions) and the cache's own modal. */
export function ComposeRecipients({ form }: { form: UseFormReturnType<ComposeValues> }) {
  const cache = useAddressCache();
  const [search, setSearch] = useState('');
  const [cacheOpen, setCacheOpen] = useState(false);

  const changeTo = (tags: string[]) => {
    const normalized: string[] = [];
    const invalid: string[] = [];
    for (const typed of tags.flatMap((tag) => tag.split(SEPARATORS)).map((part) => part.trim()).filter(Boolean)) {
      const address = normalizeAddress(typed);
      if (address === null) invalid.push(typed);
      else if (!normalized.includes(address)) normalized.push(address);
    }
    form.setFieldValue('to', normalized);
    form.setFieldError('to', invalid.length === 0 ? null : releaseMessages.addressInvalid);
    // The rejected text stays in the box so it can be corrected.
    setSearch(invalid.join('; '));
  };

  return (
    <div>
      <TagsInput
        label="To"
        withAsterisk
        placeholder="Direct address or fax number"
        description="Press Enter after each address, or paste a list separated by ; or ,"
        value={form.values.to}
        onChange={changeTo}
        searchValue={search}
        onSearchChange={(value) => {
          if (form.errors.to) form.clearFieldError('to');
          // Text that arrives whole (autofill, a filled field) with separators in it becomes tags at once.
          if (SEPARATORS.test(value)) changeTo([...form.values.to, value]);
          else setSearch(value);
        }}
        error={form.errors.to}
        data={(cache.data ?? []).map((entry) => entry.address)}
        limit={15}
        splitChars={[',', ';']}
        acceptValueOnBlur
        styles={{ pill: { maxWidth: '100%' } }}
      />
      <Group justify="flex-end" mt={4}>
        <Button variant="subtle" size="compact-xs" onClick={() => setCacheOpen(true)}>
          Saved Direct addresses
        </Button>
      </Group>
      <AddressCacheModal opened={cacheOpen} onClose={() => setCacheOpen(false)} />
    </div>
  );
}
