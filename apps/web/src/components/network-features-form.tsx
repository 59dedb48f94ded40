import { useState } from 'react';
import { Button, Checkbox, Group, Stack } from '@mantine/core';
import { NETWORK_FEATURES, networkMessages } from '@clinicrelay/contracts/networks.ts';
import { errorDetails } from './error-details.ts';
import { notifyError, notifySuccess } from './notify.ts';

export interface NetworkFeaturesFormProps {
  /** The network's enabled feature ids as stored. */
  stored: readonly number[];
  onSave: (enabledNetworkFeatureIds: number[]) => Promise<unknown>;
}

/**
 * A network's features (back-office-a §4), for system administrators in the network modal and for the network's
 * administrators on their own page: SSO and SCIM stay on once on; deselecting a parent deselects its children; a
 * child only with its parent; Save only when the selection differs from the stored one.
 */
export function NetworkFeaturesForm({ stored, onSave }: NetworkFeaturesFormProps) {
  const [selected, setSelected] = useState<number[]>([...stored]);
  const [busy, setBusy] = useState(false);
  const changed = [...selected].sort().join() !== [...stored].sort().join();
  const childrenOf = (id: number): number[] => NETWORK_FEATURES.filter((f) => f.parentId === id).map((f) => f.id);
  const toggle = (id: number, on: boolean) =>
    setSelected((current) => (on ? [...current, id] : current.filter((x) => x !== id && !childrenOf(id).includes(x))));
  const save = async () => {
    setBusy(true);
    try {
      await onSave(selected);
      notifySuccess(networkMessages.featuresUpdated);
    } catch (failure) {
      notifyError(errorDetails(failure).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack>
      {NETWORK_FEATURES.map((f) => {
        const lockedOn = f.locked && stored.includes(f.id);
        const parentOff = f.parentId !== null && !selected.includes(f.parentId);
        return (
          <Checkbox
            key={f.id}
            ml={f.parentId === null ? 0 : 'xl'}
            label={f.name}
            description={lockedOn ? `${f.description} Cannot be turned off once on.` : f.description}
            checked={selected.includes(f.id)}
            disabled={lockedOn || parentOff}
            onChange={(event) => toggle(f.id, event.currentTarget.checked)}
          />
        );
      })}
      <Group justify="flex-end">
        <Button onClick={() => void save()} disabled={!changed} loading={busy}>
          Save
        </Button>
      </Group>
    </Stack>
  );
}
