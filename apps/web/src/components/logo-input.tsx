import { type ReactNode, useEffect, useState } from 'react';
import { FileInput, Group, Image, Stack, Text } from '@mantine/core';
import { z } from 'zod';
import { LOGO_ACCEPT, LOGO_MAX_BYTES, LOGO_MAX_HEIGHT, LOGO_MAX_WIDTH, logoMessages } from '@clinicrelay/contracts/logos.ts';

// The checks a browser can make before sending; the server checks the content and the dimensions.
export const logoFile = z
  .instanceof(File)
  .refine((file) => LOGO_ACCEPT.split(',').includes(file.type), logoMessages.type)
  .refine((file) => file.size <= LOGO_MAX_BYTES, logoMessages.tooLarge)
  .nullable();

export interface LogoInputProps {
  label: string;
  value: File | null;
  onChange: (file: File | null) => void;
  error?: ReactNode;
  /** The stored logo's address, shown until another file is chosen. */
  currentUrl: string | null;
  /** The colour the logo is shown on (the reseller's background colour), as hex without #. */
  background?: string | null;
}

/** A logo upload with a preview of the chosen file, or of the stored logo (partners and resellers). */
export function LogoInput({ label, value, onChange, error, currentUrl, background }: LogoInputProps) {
  // A data URL (the CSP allows data: images) read off the chosen file: nothing to release when the modal closes.
  const [read, setRead] = useState<{ file: File; url: string } | null>(null);
  useEffect(() => {
    if (!value) return;
    const reader = new FileReader();
    reader.onload = () => setRead({ file: value, url: reader.result as string });
    reader.readAsDataURL(value);
    return () => reader.abort();
  }, [value]);
  const preview = value && read?.file === value ? read.url : null;
  const shown = value ? preview : currentUrl;
  return (
    <Stack gap={6}>
      <FileInput
        label={label}
        placeholder="Choose a PNG, JPEG or GIF"
        accept={LOGO_ACCEPT}
        clearable
        clearButtonProps={{ 'aria-label': `Remove the chosen ${label.toLowerCase()}` }}
        value={value}
        onChange={onChange}
        error={error}
        description={`At most ${LOGO_MAX_WIDTH} × ${LOGO_MAX_HEIGHT} pixels and 1 MB.`}
      />
      {shown && (
        <Group p="xs" style={{ background: background ? `#${background}` : undefined, border: '1px solid var(--mantine-color-gray-3)', borderRadius: 4 }}>
          <Image src={shown} alt={`${label} preview`} mah={80} maw={300} fit="contain" />
          {!preview && (
            <Text size="xs" c="dimmed">
              Current logo
            </Text>
          )}
        </Group>
      )}
    </Stack>
  );
}
