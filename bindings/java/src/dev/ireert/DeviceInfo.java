// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
package dev.ireert;

import java.util.Map;

/** A device a driver can create: a name, the URI that creates it, and its properties. */
public final class DeviceInfo {
  private final String name;
  private final String uri;
  private final Map<String, String> properties;

  DeviceInfo(String name, String uri, Map<String, String> properties) {
    this.name = name;
    this.uri = uri;
    this.properties = properties;
  }

  public String name() {
    return name;
  }

  /** The URI to pass to {@link Instance#createDevice}. */
  public String uri() {
    return uri;
  }

  public Map<String, String> properties() {
    return properties;
  }

  @Override
  public String toString() {
    return name + " (" + uri + ") " + properties;
  }
}
