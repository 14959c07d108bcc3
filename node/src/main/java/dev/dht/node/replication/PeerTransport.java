package dev.dht.node.replication;

import dev.dht.node.cluster.ClusterSecrets;
import dev.dht.node.tls.TlsEngine;
import dev.dht.node.tls.TlsReloader;
import io.vertx.core.Context;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.net.URI;

/**
 * How this node reaches a peer: at the peer's host (from its member URL), on the peer port every
 * member shares, or on the member URL's own port when peers share the client port (plain HTTP);
 * over mutual TLS when the node has a certificate, presenting it and checking the peer's against
 * the cluster's CAs and its host name. Every request carries the cluster secret, when there is one.
 */
public final class PeerTransport {
  private final int peerPort;
  private final TlsReloader tls;
  private final ClusterSecrets secret;
  private final boolean framed;

  /**
   * @param peerPort the port every member takes peer requests on; 0: each member URL's own port
   * @param tls the node's certificate and CAs; null: plain HTTP
   * @param secret the cluster secret sent on every request (re-read: a rotation changes it)
   * @param framed whether batches go as {@link PeerFrames} to peers that speak them (and this
   *     node's peer port takes them); false: HTTP batches only, as nodes before them did
   */
  public PeerTransport(int peerPort, TlsReloader tls, ClusterSecrets secret, boolean framed) {
    this.peerPort = peerPort;
    this.framed = framed;
    this.tls = tls;
    this.secret = secret;
  }

  public boolean framed() {
    return framed;
  }

  /** Options for an HTTP client to peers; TLS ones when the node has a certificate. */
  public HttpClientOptions clientOptions() {
    HttpClientOptions options = new HttpClientOptions();
    if (tls != null) {
      options
          .setSsl(true)
          .setVerifyHost(true)
          .setSslEngineOptions(TlsEngine.options())
          .setKeyCertOptions(tls.current().client().getKeyCertOptions())
          .setTrustOptions(tls.current().client().getTrustOptions());
    }
    return options;
  }

  /** Keeps {@code client} (made on {@code context}) on the latest certificate and CAs. */
  public void keepCurrent(Context context, HttpClientAgent client) {
    if (tls != null) {
      tls.onChange(context, material -> client.updateSSLOptions(material.client()));
    }
  }

  /** The cluster secret this node sends now; null: none. */
  public String currentSecret() {
    return secret.current();
  }

  /** A request to {@code member}'s peer endpoint, with the cluster secret if there is one. */
  public RequestOptions request(String member, HttpMethod method, String uri) {
    URI url = URI.create(member);
    RequestOptions options =
        new RequestOptions()
            .setMethod(method)
            .setHost(url.getHost())
            .setPort(peerPort > 0 ? peerPort : url.getPort())
            .setURI(uri);
    String presented = secret.current();
    if (presented != null) {
      options.putHeader(InternalApi.SECRET_HEADER, presented);
    }
    return options;
  }
}
