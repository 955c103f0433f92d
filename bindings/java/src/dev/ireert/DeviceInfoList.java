// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
package dev.ireert;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A native device enumeration, converted to {@link DeviceInfo}s at once. */
final class DeviceInfoList extends NativeObject {
  DeviceInfoList(long handle) {
    super(HandleKind.RT_KIND_DEVICE_INFO_LIST, handle);
  }

  List<DeviceInfo> toInfos() {
    long n = IreeRtNative.device_info_list_count(this);
    List<DeviceInfo> infos = new ArrayList<>();
    for (long i = 0; i < n; ++i) {
      Map<String, String> props = new LinkedHashMap<>();
      long p = IreeRtNative.device_info_list_property_count(this, i);
      for (long j = 0; j < p; ++j) {
        props.put(IreeRtNative.device_info_list_property_key(this, i, j),
            IreeRtNative.device_info_list_property_value(this, i, j));
      }
      infos.add(new DeviceInfo(IreeRtNative.device_info_list_name(this, i),
          IreeRtNative.device_info_list_uri(this, i), Collections.unmodifiableMap(props)));
    }
    return Collections.unmodifiableList(infos);
  }
}
