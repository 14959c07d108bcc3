package dev.dht.node.storage;

import java.nio.file.Path;
import org.rocksdb.EnvOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileWriter;

/**
 * Writes data records, in increasing key order, into a new SST file in the data's own format: what
 * {@link Storage#ingestIfNewer} takes. Owns its native writer; close it.
 */
public final class SstWriter implements AutoCloseable {
  private final EnvOptions envOptions = new EnvOptions();
  private final SstFileWriter writer;
  private final Path file;

  SstWriter(Options options, Path file) {
    this.file = file;
    this.writer = new SstFileWriter(envOptions, options);
    try {
      writer.open(file.toString());
    } catch (RocksDBException e) {
      close();
      throw new StorageException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  /** Adds a record; keys must come in strictly increasing (unsigned bytewise) order. */
  public void put(byte[] key, byte[] encodedRecord) {
    try {
      writer.put(key, encodedRecord);
    } catch (RocksDBException e) {
      throw new StorageException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  /** Completes the file; at least one record must have been put. */
  public void finish() {
    try {
      writer.finish();
    } catch (RocksDBException e) {
      throw new StorageException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    writer.close();
    envOptions.close();
  }
}
