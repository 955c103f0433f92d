// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// iree_rt_value_list_*: the variant lists that carry call arguments and results.
#include <cmath>
#include <limits>

#include "api/status_bridge.h"
#include "api/vm_handles.h"
#include "hal/buffer_view.h"
#include "hal/fence.h"
#include "iree_rt.h"
#include "modules/hal/ref_types.h"

using iree_rt::base::MakeRef;
using iree_rt::base::Ref;
using iree_rt::base::Status;
using iree_rt::base::StatusOr;
namespace api = iree_rt::api;
namespace base = iree_rt::base;
namespace hal = iree_rt::hal;
namespace vm = iree_rt::vm;
using api::CheckNotNull;
using api::FromHandle;
using api::Guard;
using api::ValueListHandle;

namespace {

static_assert(IREE_RT_VALUE_TYPE_I8 == static_cast<int>(vm::ValueType::kI8));
static_assert(IREE_RT_VALUE_TYPE_F64 == static_cast<int>(vm::ValueType::kF64));
static_assert(IREE_RT_VALUE_TYPE_REF == static_cast<int>(vm::ValueType::kRef));

StatusOr<vm::Value> GetChecked(ValueListHandle* list, size_t index) {
  RT_RETURN_IF_ERROR(api::CheckIndex(index, list->list->size(), "index"));
  return list->list->GetVariant(index);
}

bool IsInteger(vm::ValueType type) {
  return type == vm::ValueType::kI8 || type == vm::ValueType::kI16 ||
         type == vm::ValueType::kI32 || type == vm::ValueType::kI64;
}

Status WrongKind(size_t index, const vm::Value& value, const char* wanted) {
  return base::InvalidArgumentError("value ", index, " is ", vm::ValueTypeName(value.type()),
                                    ", not ", wanted);
}

StatusOr<int64_t> GetInteger(iree_rt_value_list_t list, size_t index) {
  RT_ASSIGN_OR_RETURN(ValueListHandle * l, FromHandle(list, "list"));
  RT_ASSIGN_OR_RETURN(vm::Value value, GetChecked(l, index));
  if (!IsInteger(value.type())) return WrongKind(index, value, "an integer");
  return value.i64();
}

StatusOr<double> GetFloat(iree_rt_value_list_t list, size_t index) {
  RT_ASSIGN_OR_RETURN(ValueListHandle * l, FromHandle(list, "list"));
  RT_ASSIGN_OR_RETURN(vm::Value value, GetChecked(l, index));
  if (value.type() == vm::ValueType::kF32) return static_cast<double>(value.f32());
  if (value.type() == vm::ValueType::kF64) return value.f64();
  return WrongKind(index, value, "a float");
}

Status Push(iree_rt_value_list_t list, vm::Value value) {
  RT_ASSIGN_OR_RETURN(ValueListHandle * l, FromHandle(list, "list"));
  return l->list->Push(std::move(value));
}

}  // namespace

iree_rt_status_t iree_rt_value_list_create(size_t capacity, iree_rt_value_list_t* out_list) {
  return Guard(__func__, [&]() -> Status {
    RT_RETURN_IF_ERROR(CheckNotNull(out_list, "out_list"));
    RT_ASSIGN_OR_RETURN(Ref<vm::List> list, vm::List::Create(vm::Type::Any(), capacity));
    *out_list = api::ToHandle(MakeRef<ValueListHandle>(std::move(list)));
    return Status::Ok();
  });
}

void iree_rt_value_list_retain(iree_rt_value_list_t list) { api::RetainHandle(list); }
void iree_rt_value_list_release(iree_rt_value_list_t list) { api::ReleaseHandle(list); }

iree_rt_status_t iree_rt_value_list_size(iree_rt_value_list_t list, size_t* out_size) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(ValueListHandle * l, FromHandle(list, "list"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_size, "out_size"));
    *out_size = l->list->size();
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_value_list_clear(iree_rt_value_list_t list) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(ValueListHandle * l, FromHandle(list, "list"));
    return l->list->Resize(0);
  });
}

iree_rt_status_t iree_rt_value_list_push_i32(iree_rt_value_list_t list, int32_t value) {
  return Guard(__func__, [&]() { return Push(list, vm::Value::I32(value)); });
}
iree_rt_status_t iree_rt_value_list_push_i64(iree_rt_value_list_t list, int64_t value) {
  return Guard(__func__, [&]() { return Push(list, vm::Value::I64(value)); });
}
iree_rt_status_t iree_rt_value_list_push_f32(iree_rt_value_list_t list, float value) {
  return Guard(__func__, [&]() { return Push(list, vm::Value::F32(value)); });
}
iree_rt_status_t iree_rt_value_list_push_f64(iree_rt_value_list_t list, double value) {
  return Guard(__func__, [&]() { return Push(list, vm::Value::F64(value)); });
}

iree_rt_status_t iree_rt_value_list_push_buffer_view(iree_rt_value_list_t list,
                                                     iree_rt_buffer_view_t view) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(api::BufferViewHandle * v, api::FromNullableHandle(view, "view"));
    vm::Ref ref = v ? vm::Ref::Make(v->view) : vm::Ref();
    return Push(list, vm::Value::FromRef(std::move(ref)));
  });
}

iree_rt_status_t iree_rt_value_list_push_fence(iree_rt_value_list_t list, iree_rt_fence_t fence) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(api::FenceHandle * f, api::FromNullableHandle(fence, "fence"));
    vm::Ref ref = f ? vm::Ref::Make(f->current()) : vm::Ref();
    return Push(list, vm::Value::FromRef(std::move(ref)));
  });
}

iree_rt_status_t iree_rt_value_list_push_list(iree_rt_value_list_t list,
                                              iree_rt_value_list_t element) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(ValueListHandle * l, FromHandle(list, "list"));
    RT_ASSIGN_OR_RETURN(ValueListHandle * e, api::FromNullableHandle(element, "element"));
    // A cycle would never be freed (reference counts cannot collect it).
    if (e && e->list.get() == l->list.get()) {
      return base::InvalidArgumentError("a list cannot contain itself");
    }
    vm::Ref ref = e ? vm::Ref::Make(e->list) : vm::Ref();
    return l->list->Push(vm::Value::FromRef(std::move(ref)));
  });
}

iree_rt_status_t iree_rt_value_list_get_type(iree_rt_value_list_t list, size_t index,
                                             iree_rt_value_type_t* out_type) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(ValueListHandle * l, FromHandle(list, "list"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_type, "out_type"));
    RT_ASSIGN_OR_RETURN(vm::Value value, GetChecked(l, index));
    *out_type = static_cast<iree_rt_value_type_t>(value.type());
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_value_list_get_ref_type(iree_rt_value_list_t list, size_t index,
                                                 const char** out_type_name) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(ValueListHandle * l, FromHandle(list, "list"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_type_name, "out_type_name"));
    RT_ASSIGN_OR_RETURN(vm::Value value, GetChecked(l, index));
    if (!value.is_ref()) return WrongKind(index, value, "a reference");
    // RefType names are string literals: NUL-terminated and static.
    *out_type_name = value.ref().is_null() ? "" : value.ref().type()->name.data();
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_value_list_get_i32(iree_rt_value_list_t list, size_t index,
                                            int32_t* out_value) {
  return Guard(__func__, [&]() -> Status {
    RT_RETURN_IF_ERROR(CheckNotNull(out_value, "out_value"));
    RT_ASSIGN_OR_RETURN(int64_t value, GetInteger(list, index));
    if (value < std::numeric_limits<int32_t>::min() ||
        value > std::numeric_limits<int32_t>::max()) {
      return base::OutOfRangeError("value ", index, " (", value, ") does not fit in i32");
    }
    *out_value = static_cast<int32_t>(value);
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_value_list_get_i64(iree_rt_value_list_t list, size_t index,
                                            int64_t* out_value) {
  return Guard(__func__, [&]() -> Status {
    RT_RETURN_IF_ERROR(CheckNotNull(out_value, "out_value"));
    RT_ASSIGN_OR_RETURN(*out_value, GetInteger(list, index));
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_value_list_get_f32(iree_rt_value_list_t list, size_t index,
                                            float* out_value) {
  return Guard(__func__, [&]() -> Status {
    RT_RETURN_IF_ERROR(CheckNotNull(out_value, "out_value"));
    RT_ASSIGN_OR_RETURN(double value, GetFloat(list, index));
    *out_value = static_cast<float>(value);
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_value_list_get_f64(iree_rt_value_list_t list, size_t index,
                                            double* out_value) {
  return Guard(__func__, [&]() -> Status {
    RT_RETURN_IF_ERROR(CheckNotNull(out_value, "out_value"));
    RT_ASSIGN_OR_RETURN(*out_value, GetFloat(list, index));
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_value_list_get_buffer_view(iree_rt_value_list_t list, size_t index,
                                                    iree_rt_buffer_view_t* out_view) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(ValueListHandle * l, FromHandle(list, "list"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_view, "out_view"));
    RT_ASSIGN_OR_RETURN(vm::Value value, GetChecked(l, index));
    if (!value.is_ref()) return WrongKind(index, value, "a hal.buffer_view");
    if (value.ref().is_null()) {
      *out_view = nullptr;
      return Status::Ok();
    }
    Ref<hal::BufferView> view = value.ref().GetRef<hal::BufferView>();
    if (!view) {
      return base::InvalidArgumentError("value ", index, " is a ", value.ref().type()->name,
                                        ", not a hal.buffer_view");
    }
    auto buffer = MakeRef<api::BufferHandle>(view->buffer());
    *out_view = api::ToHandle(MakeRef<api::BufferViewHandle>(std::move(view), std::move(buffer)));
    return Status::Ok();
  });
}

iree_rt_status_t iree_rt_value_list_get_list(iree_rt_value_list_t list, size_t index,
                                             iree_rt_value_list_t* out_list) {
  return Guard(__func__, [&]() -> Status {
    RT_ASSIGN_OR_RETURN(ValueListHandle * l, FromHandle(list, "list"));
    RT_RETURN_IF_ERROR(CheckNotNull(out_list, "out_list"));
    RT_ASSIGN_OR_RETURN(vm::Value value, GetChecked(l, index));
    if (!value.is_ref()) return WrongKind(index, value, "a vm.list");
    if (value.ref().is_null()) {
      *out_list = nullptr;
      return Status::Ok();
    }
    Ref<vm::List> element = value.ref().GetRef<vm::List>();
    if (!element) {
      return base::InvalidArgumentError("value ", index, " is a ", value.ref().type()->name,
                                        ", not a vm.list");
    }
    *out_list = api::ToHandle(MakeRef<ValueListHandle>(std::move(element)));
    return Status::Ok();
  });
}
