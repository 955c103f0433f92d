// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
using System;
using System.Collections.Generic;

namespace IreeRt {

internal sealed class DeviceInfoList : NativeObject {
  internal DeviceInfoList(IntPtr handle) : base(HandleKind.RT_KIND_DEVICE_INFO_LIST, handle) {}

  internal IReadOnlyList<DeviceInfo> ToInfos() {
    long n = IreeRtNative.device_info_list_count(this);
    var infos = new List<DeviceInfo>();
    for (long i = 0; i < n; ++i) {
      var props = new Dictionary<string, string>();
      long p = IreeRtNative.device_info_list_property_count(this, i);
      for (long j = 0; j < p; ++j) {
        props[IreeRtNative.device_info_list_property_key(this, i, j)] =
            IreeRtNative.device_info_list_property_value(this, i, j);
      }
      infos.Add(new DeviceInfo { Name = IreeRtNative.device_info_list_name(this, i),
                                 Uri = IreeRtNative.device_info_list_uri(this, i),
                                 Properties = props });
    }
    return infos;
  }
}

}  // namespace IreeRt
