package io.tileseeder.port;

import io.tileseeder.job.Digests;
import java.time.Instant;

/**
 * What a store holds of one tile: when it was written, and the MD5 of its bytes (lower-case hex), null where the
 * store cannot tell it (an S3 object written in parts, whose ETag is not an MD5).
 */
public record StoredTile(Instant lastModified, String md5) {

    /** Whether the store holds exactly these bytes; false when its MD5 is unknown. */
    public boolean holds(byte[] data) {
        return md5 != null && md5.equals(Digests.md5(data));
    }
}
